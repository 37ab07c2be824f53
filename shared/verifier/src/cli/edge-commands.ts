/**
 * `pentagate verify command|consent`: the artifacts of the edge — a signed motor command (HMAC, checked
 * with the controller's key) and an operator's consent token (Ed25519 DSSE, checked with the trust file).
 */
import { type ControllerState, readHmacKeyFile } from '@pentagate/crypto';
import { type Command, RobotIdSchema, UsageError, validate } from '@pentagate/protocol';
import { Type } from '@sinclair/typebox';
import { verifyConsentToken } from '../consent-token.js';
import { readInputJson } from '../input-files.js';
import { verifyMotorCommand } from '../motor-command.js';
import {
  EXIT_CODES_HELP,
  atOption,
  checkTime,
  emitReport,
  jsonOption,
  requireTrust,
  trustOption,
} from './common.js';

const ControllerStateSchema = Type.Object(
  {
    robotId: RobotIdSchema,
    epoch: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    lastSeq: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  },
  { additionalProperties: false },
);

async function readState(path: string): Promise<ControllerState> {
  return validate(
    ControllerStateSchema,
    await readInputJson(path, 'controller state'),
    `controller state ${path}`,
  );
}

export const edgeCommands: Command[] = [
  {
    path: ['verify', 'command'],
    summary: 'Check a signed motor command: shape, key id, HMAC; optionally controller acceptance',
    usage: 'FILE --hmac-key KEYFILE [--state STATE] [--json] [--at ISO]',
    description: [
      'FILE is a motor command (JSON, ARCHITECTURE.md §4). Checks:',
      '  - the command has the motor-command shape (unknown members are refused)',
      '  - its kid is the key id of one of the --hmac-key files (an unknown kid makes it INVALID)',
      '  - mac is HMAC-SHA256(key, "pentagate-cmd-v1\\n" + JCS(command without mac)), compared in',
      '    constant time',
      'With --state (JSON { robotId, epoch, lastSeq }, a controller state) the command is run through the',
      "controller's own acceptance function at --at or the current clock: robotId, epoch not stale, seq",
      'above lastSeq, not past validUntil, not issued in the future. Without --state, --at alone checks',
      'issuedAt ≤ time ≤ validUntil; with neither, no clock is read.',
      'HMAC keys are secret and symmetric, so they are never in trust files; --trust is accepted and unused.',
      '',
      EXIT_CODES_HELP,
    ].join('\n'),
    options: {
      'hmac-key': {
        type: 'string',
        valueName: 'KEYFILE',
        multiple: true,
        description: 'HMAC key file (JWK kty "oct", from `pentagate keys generate --kind hmac`); repeatable',
      },
      state: {
        type: 'string',
        valueName: 'STATE',
        description: 'Controller state JSON { robotId, epoch, lastSeq }',
      },
      trust: {
        ...trustOption,
        description: 'Accepted for uniformity; not used (motor commands are HMAC-signed)',
      },
      json: jsonOption,
      at: atOption,
    },
    positionals: [1, 1],
    async run(args, io) {
      const keyPaths = (args.options['hmac-key'] as string[] | undefined) ?? [];
      if (keyPaths.length === 0) throw new UsageError('--hmac-key is required (the controller key file)');
      if (args.options.trust !== undefined)
        io.err('note: --trust is not used by `verify command` (HMAC keys)');
      const hmacKey = await Promise.all(keyPaths.map(async (p) => (await readHmacKeyFile(p)).key));
      const statePath = args.options.state;
      const state = typeof statePath === 'string' ? await readState(statePath) : undefined;
      const command = await readInputJson(args.positionals[0]!, 'motor command');
      const time = checkTime(args, state !== undefined);
      const report = verifyMotorCommand(command, {
        hmacKey,
        ...(state ? { state } : {}),
        ...(time ? { atMs: time.atMs } : {}),
      });
      return emitReport(report, args, io, time);
    },
  },
  {
    path: ['verify', 'consent'],
    summary: 'Check an operator consent token: signature, statement, window, intent binding',
    usage: 'FILE --trust TRUST [--intent FILE] [--robot ID] [--json] [--at ISO]',
    description: [
      'FILE is a consent token: a DSSE envelope (JSON) with payloadType',
      'application/vnd.pentagate.consent+json. Checks:',
      "  - signed by a trusted key of role 'operator' (unknown key ids are named), valid at the check time",
      '  - the payload is a consent statement { v, intentDigest, robotId, operatorId, scope, notBefore,',
      '    expiresAt, nonce }',
      "  - a key the trust file names (an enrolled operator's: its name) signs only for that operatorId",
      '  - notBefore ≤ time ≤ expiresAt at --at or the current clock',
      '  - with --intent FILE: intentDigest is SHA-256(JCS(intent))',
      '  - with --robot ID: the consent is for that robot',
      'Single use cannot be checked offline: the edge remembers spent nonces.',
      '',
      EXIT_CODES_HELP,
    ].join('\n'),
    options: {
      trust: trustOption,
      intent: { type: 'string', valueName: 'FILE', description: 'The intent (JSON) the consent must be for' },
      robot: { type: 'string', valueName: 'ID', description: 'The robot id the consent must be for' },
      json: jsonOption,
      at: atOption,
    },
    positionals: [1, 1],
    async run(args, io) {
      const trust = await requireTrust(args);
      const envelope = await readInputJson(args.positionals[0]!, 'consent token');
      const intentPath = args.options.intent;
      const intent = typeof intentPath === 'string' ? await readInputJson(intentPath, 'intent') : undefined;
      const robot = args.options.robot;
      const time = checkTime(args);
      const report = verifyConsentToken(envelope, trust, {
        ...(intent !== undefined ? { intent } : {}),
        ...(typeof robot === 'string' ? { robotId: robot } : {}),
        ...(time ? { atMs: time.atMs } : {}),
      });
      return emitReport(report, args, io, time);
    },
  },
];
