/** `pentagate edge hash-password`: the scrypt hash to put in an embedded-broker users file. */
import { type Command, ExitCode, requireOption } from '@pentagate/protocol';
import { hashPassword } from '../broker/password-hash.js';
import { readSecretFile } from './cli-values.js';

export const hashPasswordCommand: Command = {
  path: ['edge', 'hash-password'],
  summary: 'Hash a broker password (scrypt) for the embedded broker users file',
  usage: '--password-file FILE',
  description: [
    'Reads one line from FILE and prints scrypt$<logN>$<r>$<p>$<salt>$<key> for the "passwordHash" of a user',
    'in --broker-users. The password is read from a file so it stays out of shell history and process lists.',
    '',
    'Exit codes: 0 printed; 2 unreadable file.',
  ].join('\n'),
  options: {
    'password-file': {
      type: 'string',
      description: 'File holding the password (one line)',
      valueName: 'FILE',
    },
  },
  async run(args, io) {
    io.out(await hashPassword(await readSecretFile(requireOption(args, 'password-file'), 'password-file')));
    return ExitCode.ok;
  },
};
