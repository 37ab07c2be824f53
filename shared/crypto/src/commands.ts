/**
 * `pentagate keys …`: make key files and print what others need to trust them. Private key material
 * is written only to the file (mode 0600) and never printed.
 */
import {
  type Command,
  ExitCode,
  KEY_ROLES,
  type KeyRole,
  UsageError,
  readJson,
  requireOption,
} from '@pentagate/protocol';
import { readFile } from 'node:fs/promises';
import {
  type KeyFileFormat,
  readEd25519KeyFile,
  readHmacKeyFile,
  trustEntryFor,
  writeEd25519KeyFile,
  writeHmacKeyFile,
} from './key-files.js';
import { toBase64Url } from '@pentagate/protocol';
import { noteVerifierKey } from './signed-note.js';

function oneOf<T extends string>(value: unknown, allowed: readonly T[], option: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${option}: expected one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}

const generate: Command = {
  path: ['keys', 'generate'],
  summary: 'Generate an Ed25519 signing key or an HMAC command key into a new file (mode 0600)',
  usage: '--kind ed25519|hmac --out FILE [--format pem|jwk]',
  description: `Writes a fresh random key to FILE with mode 0600. FILE must not exist: an existing key is
never overwritten. Prints the key id (and, for Ed25519, the public key); the secret is never printed.

Ed25519 keys sign proofs, checkpoints, consent, firmware and calibration statements; they are written
as PEM PKCS#8 (default) or as a JWK. HMAC keys sign motor commands between the edge and the
controller; they are always a JWK {"kty":"oct"} holding 32 random bytes.

Exit codes: 0 written, 2 bad usage or the file exists / cannot be created.

Examples:
  pentagate keys generate --kind ed25519 --out proof-key.pem
  pentagate keys generate --kind hmac --out robot-7.cmd.jwk
  pentagate keys public proof-key.pem --role proof`,
  options: {
    kind: { type: 'string', description: 'ed25519 or hmac', valueName: 'KIND' },
    out: { type: 'string', short: 'o', description: 'Path of the new key file', valueName: 'FILE' },
    format: {
      type: 'string',
      description: 'Ed25519 file format: pem or jwk',
      valueName: 'FORMAT',
      default: 'pem',
    },
  },
  async run(args, io) {
    const kind = oneOf(requireOption(args, 'kind'), ['ed25519', 'hmac'] as const, 'kind');
    const out = requireOption(args, 'out');
    const format = oneOf(args.options.format, ['pem', 'jwk'] as const, 'format') as KeyFileFormat;
    if (kind === 'hmac') {
      const { kid } = await writeHmacKeyFile(out);
      io.out(`wrote HMAC command key ${kid} to ${out} (mode 0600, JWK)`);
      return ExitCode.ok;
    }
    const { kid, publicKey } = await writeEd25519KeyFile(out, undefined, format);
    io.out(
      [
        `wrote Ed25519 key ${kid} to ${out} (mode 0600, ${format.toUpperCase()})`,
        `public key: ${toBase64Url(publicKey)}`,
        `next: pentagate keys public ${out} --role <role>  (prints a trust-file entry)`,
      ].join('\n'),
    );
    return ExitCode.ok;
  },
};

async function looksLikeHmacJwk(path: string): Promise<boolean> {
  try {
    const text = await readFile(path, 'utf8');
    if (text.trimStart().startsWith('-----BEGIN')) return false;
    const value = readJson(text, { what: path }) as { kty?: unknown } | null;
    return value !== null && typeof value === 'object' && value.kty === 'oct';
  } catch {
    return false; // readEd25519KeyFile reports the real problem
  }
}

const publicCmd: Command = {
  path: ['keys', 'public'],
  summary: 'Print the public key of an Ed25519 key file and a ready trust-file entry',
  usage: 'FILE [--role ROLE] [--name NAME] [--not-before ISO] [--not-after ISO] [--json]',
  description: `Reads an Ed25519 key file (PEM PKCS#8 or JWK) and prints its key id, its public key
(base64url), and a trust-file entry {kid, alg, role, publicKey, …} to paste into the "keys" array of
a trust file (the document GET /api/v1/keys serves). With --name, also prints the C2SP signed-note
verifier key "name+hash+base64" (for checkpoint keys the name is the log origin).

For an HMAC key file it prints only the key id: HMAC keys are secret and have no public form.

Exit codes: 0 printed, 2 bad usage or an unreadable key file.`,
  options: {
    role: {
      type: 'string',
      description: `Role of the key in the trust entry: ${KEY_ROLES.join(', ')}`,
      valueName: 'ROLE',
      default: 'proof',
    },
    name: {
      type: 'string',
      description: 'Signer name (signed notes; the log origin for checkpoint keys)',
      valueName: 'NAME',
    },
    'not-before': {
      type: 'string',
      description: 'Validity start of the trust entry (ISO 8601)',
      valueName: 'ISO',
    },
    'not-after': {
      type: 'string',
      description: 'Validity end of the trust entry (ISO 8601)',
      valueName: 'ISO',
    },
    json: { type: 'boolean', description: 'Print one JSON object instead of text' },
  },
  positionals: [1, 1],
  async run(args, io) {
    const file = args.positionals[0] as string;
    const json = args.options.json === true;
    if (await looksLikeHmacJwk(file)) {
      const { kid } = await readHmacKeyFile(file);
      io.out(
        json
          ? JSON.stringify({ kind: 'hmac', kid }, null, 2)
          : `HMAC command key ${kid} (secret; no public form)`,
      );
      return ExitCode.ok;
    }
    const role = oneOf(args.options.role, KEY_ROLES, 'role') as KeyRole;
    const { kid, publicKey, seed } = await readEd25519KeyFile(file);
    seed.fill(0);
    const opt = (name: string) =>
      typeof args.options[name] === 'string' ? (args.options[name] as string) : undefined;
    const name = opt('name');
    const entry = trustEntryFor(publicKey, role, {
      name,
      notBefore: opt('not-before'),
      notAfter: opt('not-after'),
    });
    const vkey = name === undefined ? undefined : noteVerifierKey(name, publicKey);
    if (json) {
      io.out(
        JSON.stringify(
          { kind: 'ed25519', kid, publicKey: entry.publicKey, trustEntry: entry, noteVerifierKey: vkey },
          null,
          2,
        ),
      );
      return ExitCode.ok;
    }
    const lines = [`key id:     ${kid}`, `public key: ${entry.publicKey}`];
    if (vkey) lines.push(`note verifier key: ${vkey}`);
    lines.push('', 'trust-file entry (add it to the "keys" array):', JSON.stringify(entry, null, 2));
    io.out(lines.join('\n'));
    return ExitCode.ok;
  },
};

/** The `pentagate` subcommands this package contributes. */
export const commands: Command[] = [generate, publicCmd];
