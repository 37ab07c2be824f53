/**
 * `pentagate consent grant`: an operator's signed acknowledgement of ONE intent (DSSE consent statement),
 * printed as JSON — the token to publish on `pentagate/v1/<robotId>/consent`.
 */
import { randomBytes } from 'node:crypto';
import { createEd25519Signer, dsseSignStatement, jcsDigestHex, readEd25519KeyFile } from '@pentagate/crypto';
import {
  type Command,
  type ConsentStatement,
  ConsentStatementSchema,
  ExitCode,
  IntentSchema,
  PAYLOAD_TYPES,
  requireOption,
  toBase64Url,
  UsageError,
  validate,
} from '@pentagate/protocol';
import { optionalString, parseDurationMs, parseIsoMs, readJsonFile, writeNewFile } from './cli-values.js';

const SCOPES = ['high-torque', 'safety-critical'] as const;

export const consentGrantCommand: Command = {
  path: ['consent', 'grant'],
  summary: 'Sign an operator consent for one intent and print the token (DSSE JSON)',
  usage:
    '--key OPERATOR_KEY --intent FILE --operator ID [--ttl 60s] [--scope high-torque|safety-critical] [--out FILE]',
  description: [
    'Reads the intent the edge is holding (the JSON published on …/intent), binds a consent statement to it',
    '{ intentDigest = SHA-256(JCS(intent)), robotId, operatorId, scope, notBefore, expiresAt, nonce } and signs it',
    'with the operator Ed25519 key. The token is single use (random nonce) and expires after --ttl.',
    'Publish it on pentagate/v1/<robotId>/consent; the edge resumes the intent if the key has role "operator".',
    '',
    'Exit codes: 0 printed; 2 bad usage, unreadable key or intent, or an invalid intent.',
    '',
    'Example: pentagate consent grant --key operator.pem --intent lift.json --operator alice --ttl 60s \\',
    '           | mosquitto_pub -t pentagate/v1/ur5e-01/consent -s',
  ].join('\n'),
  options: {
    key: { type: 'string', description: 'Operator Ed25519 key file (PEM or JWK)', valueName: 'FILE' },
    intent: { type: 'string', description: 'The intent JSON file', valueName: 'FILE' },
    operator: { type: 'string', description: 'Operator id recorded in the statement', valueName: 'ID' },
    ttl: {
      type: 'string',
      description: 'How long the consent stays valid',
      valueName: 'DURATION',
      default: '60s',
    },
    scope: {
      type: 'string',
      description: 'high-torque or safety-critical',
      valueName: 'SCOPE',
      default: 'high-torque',
    },
    'not-before': { type: 'string', description: 'Valid from (default: now)', valueName: 'ISO' },
    out: {
      type: 'string',
      short: 'o',
      description: 'Also write the token to this new file',
      valueName: 'FILE',
    },
  },
  async run(args, io) {
    const intentPath = requireOption(args, 'intent');
    const intent = validate(IntentSchema, await readJsonFile(intentPath, 'intent'), `intent ${intentPath}`);
    const scope = requireOption(args, 'scope');
    if (!(SCOPES as readonly string[]).includes(scope)) {
      throw new UsageError(`--scope: expected one of ${SCOPES.join(', ')}, got ${JSON.stringify(scope)}`);
    }
    const notBeforeText = optionalString(args, 'not-before');
    const notBefore = notBeforeText === undefined ? Date.now() : parseIsoMs(notBeforeText, 'not-before');
    const ttlMs = parseDurationMs(requireOption(args, 'ttl'), 'ttl');
    if (ttlMs === 0) throw new UsageError('--ttl: expected a positive duration, got 0');
    const key = await readEd25519KeyFile(requireOption(args, 'key'));
    const statement: ConsentStatement = validate(
      ConsentStatementSchema,
      {
        v: 1,
        intentDigest: jcsDigestHex(intent),
        robotId: intent.robotId,
        operatorId: requireOption(args, 'operator'),
        scope,
        notBefore,
        expiresAt: notBefore + ttlMs,
        nonce: toBase64Url(new Uint8Array(randomBytes(18))),
      },
      'consent statement',
    );
    const token = JSON.stringify(
      dsseSignStatement(PAYLOAD_TYPES.consent, statement, createEd25519Signer(key.seed)),
    );
    const out = optionalString(args, 'out');
    if (out !== undefined) await writeNewFile(out, `${token}\n`);
    io.out(token);
    io.err(
      `consent for intent ${intent.intentId} on ${intent.robotId} by ${statement.operatorId} (${scope}), ` +
        `valid until ${new Date(statement.expiresAt).toISOString()}, signed by ${key.kid}`,
    );
    return ExitCode.ok;
  },
};
