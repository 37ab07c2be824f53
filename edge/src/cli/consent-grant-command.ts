/**
 * `pentagate consent grant`: an operator's signed acknowledgement of ONE intent (DSSE consent statement),
 * printed as JSON — the token to publish on `pentagate/v1/<robotId>/consent` (offline), or, with --cloud,
 * signed for a move waiting in the cloud's approvals queue and handed to the cloud, which relays it to the
 * robot (consent-cloud.ts). Either way the key signs here; the cloud never sees it.
 */
import { randomBytes } from 'node:crypto';
import { createEd25519Signer, dsseSignStatement, jcsDigestHex } from '@pentagate/crypto';
import {
  type Command,
  type ConsentStatement,
  ConsentStatementSchema,
  ExitCode,
  IntentSchema,
  PAYLOAD_TYPES,
  parseTimeOption,
  requireOption,
  toBase64Url,
  UsageError,
  validate,
} from '@pentagate/protocol';
import {
  optionalString,
  CLOUD_INSECURE_HTTP_OPTION,
  parseCloudUrl,
  parseDurationMs,
  readJsonFile,
  readSecretFile,
  writeNewFile,
  readSigningKeyFile,
} from './cli-values.js';
import {
  ConsentCloudError,
  type OperatorCloud,
  relayConsent,
  type WaitingConsent,
  waitingConsents,
} from '../uplink/operator-consent.js';

const SCOPES = ['high-torque', 'safety-critical'] as const;

export const consentGrantCommand: Command = {
  path: ['consent', 'grant'],
  summary: 'Sign an operator consent for one intent and print the token (DSSE JSON)',
  usage:
    '--key OPERATOR_KEY --operator ID (--intent FILE | --cloud URL --cloud-key-file FILE --robot ID [--intent-digest HEX]) [--deny] [--ttl 60s] [--scope high-torque|safety-critical] [--not-before ISO] [--out FILE]',
  description: [
    'Reads the intent the edge is holding (the JSON published on …/intent), binds a consent statement to it',
    '{ intentDigest = SHA-256(JCS(intent)), robotId, operatorId, scope, notBefore, expiresAt, nonce } and signs it',
    'with the operator Ed25519 key. The token is single use (random nonce) and expires after --ttl.',
    'Publish it on pentagate/v1/<robotId>/consent; the edge resumes the intent if the key has role "operator".',
    '',
    'With --cloud (an operator API key in --cloud-key-file): takes the intent from the move waiting for robot',
    "--robot in the cloud's approvals queue (--intent-digest picks one when several wait; the scope defaults to",
    "the one the move needs), signs here, and hands the token to the cloud, which relays it to the robot's edge.",
    'The key must be enrolled for --operator (`pentagate cloud operator enroll`).',
    '',
    'With --deny the statement says decision "deny": the edge vetoes the move at once (CONSENT.DENIED) instead',
    'of at its deadline. It is signed, single use and relayed (to the deny route) exactly as a grant.',
    '',
    'Exit codes: 0 printed (and relayed); 1 the cloud is unreachable or refused the token; 2 bad usage,',
    'unreadable key or intent, an invalid intent, or no such waiting move.',
    '',
    'Example: pentagate consent grant --key operator.pem --intent lift.json --operator alice --ttl 60s \\',
    '           | mosquitto_pub -t pentagate/v1/ur5e-01/consent -s',
  ].join('\n'),
  options: {
    key: { type: 'string', description: 'Operator Ed25519 key file (PEM or JWK)', valueName: 'FILE' },
    intent: { type: 'string', description: 'The intent JSON file', valueName: 'FILE' },
    cloud: {
      type: 'string',
      description: 'Sign a move waiting in this cloud and relay it',
      valueName: 'URL',
    },
    'cloud-key-file': {
      type: 'string',
      description: "File holding an operator API key of the robot's tenant",
      valueName: 'FILE',
    },
    ...CLOUD_INSECURE_HTTP_OPTION,
    robot: { type: 'string', description: 'With --cloud: the robot whose move to grant', valueName: 'ID' },
    'intent-digest': {
      type: 'string',
      description: 'With --cloud: which waiting move (when several wait)',
      valueName: 'HEX',
    },
    operator: { type: 'string', description: 'Operator id recorded in the statement', valueName: 'ID' },
    ttl: {
      type: 'string',
      description: 'How long the consent stays valid',
      valueName: 'DURATION',
      default: '60s',
    },
    scope: {
      type: 'string',
      description: 'high-torque or safety-critical (default high-torque, or what the waiting move needs)',
      valueName: 'SCOPE',
    },
    'not-before': { type: 'string', description: 'Valid from (default: now)', valueName: 'ISO' },
    deny: { type: 'boolean', description: 'Sign a denial of the move instead of a consent' },
    out: {
      type: 'string',
      short: 'o',
      description: 'Also write the token to this new file',
      valueName: 'FILE',
    },
  },
  async run(args, io) {
    const cloudText = optionalString(args, 'cloud');
    const cloudUrl = cloudText === undefined ? undefined : parseCloudUrl(cloudText, args);
    let waiting: Awaited<ReturnType<typeof waitingMove>> | undefined;
    try {
      waiting = cloudUrl === undefined ? undefined : await waitingMove(args, cloudUrl);
    } catch (err) {
      if (!(err instanceof ConsentCloudError)) throw err;
      io.err(`pentagate consent grant: ${err.message}`);
      return 1;
    }
    if (waiting === undefined && optionalString(args, 'intent') === undefined) {
      throw new UsageError('give --intent FILE, or --cloud URL --cloud-key-file FILE --robot ID');
    }
    const intent = waiting
      ? waiting.move.request.intent
      : validate(IntentSchema, await readJsonFile(requireOption(args, 'intent'), 'intent'), 'intent');
    const scope = optionalString(args, 'scope') ?? waiting?.move.request.scope ?? 'high-torque';
    if (!(SCOPES as readonly string[]).includes(scope)) {
      throw new UsageError(`--scope: expected one of ${SCOPES.join(', ')}, got ${JSON.stringify(scope)}`);
    }
    const notBeforeText = optionalString(args, 'not-before');
    const notBefore = notBeforeText === undefined ? Date.now() : parseTimeOption(notBeforeText, 'not-before');
    const ttlMs = parseDurationMs(requireOption(args, 'ttl'), 'ttl');
    if (ttlMs === 0) throw new UsageError('--ttl: expected a positive duration, got 0');
    const key = await readSigningKeyFile(requireOption(args, 'key'), "operator's consent key");
    const deny = args.options.deny === true;
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
        ...(deny ? { decision: 'deny' } : {}),
      },
      'consent statement',
    );
    const envelope = dsseSignStatement(PAYLOAD_TYPES.consent, statement, createEd25519Signer(key.seed));
    const token = JSON.stringify(envelope);
    const out = optionalString(args, 'out');
    if (out !== undefined) await writeNewFile(out, `${token}\n`);
    io.out(token);
    io.err(
      `${deny ? 'denial' : 'consent'} for intent ${intent.intentId} on ${intent.robotId} by ${statement.operatorId} (${scope}), ` +
        `valid until ${new Date(statement.expiresAt).toISOString()}, signed by ${key.kid}`,
    );
    if (waiting) {
      try {
        const auditIndex = await relayConsent(waiting.cloud, waiting.move, envelope, deny ? 'deny' : 'grant');
        io.err(`relayed by ${waiting.cloud.url} to robot ${intent.robotId} (audit entry ${auditIndex})`);
      } catch (err) {
        if (!(err instanceof ConsentCloudError)) throw err;
        io.err(`pentagate consent grant: ${err.message}`);
        return 1;
      }
    }
    return ExitCode.ok;
  },
};

async function waitingMove(
  args: Parameters<Command['run']>[0],
  url: string,
): Promise<{ cloud: OperatorCloud; move: WaitingConsent }> {
  if (optionalString(args, 'intent') !== undefined) {
    throw new UsageError('--intent and --cloud: give one (with --cloud the intent comes from the cloud)');
  }
  const cloud = { url, key: await readSecretFile(requireOption(args, 'cloud-key-file'), 'cloud-key-file') };
  const robotId = requireOption(args, 'robot');
  const digest = optionalString(args, 'intent-digest');
  const moves = (await waitingConsents(cloud, robotId)).filter(
    (m) => digest === undefined || m.intentDigest === digest,
  );
  if (moves.length !== 1) {
    throw new UsageError(
      moves.length === 0
        ? `no move of robot ${robotId}${digest ? ` with intent digest ${digest}` : ''} is waiting for consent in ${url} ` +
            '(it was granted already or past its deadline, when the edge vetoes it); ' +
            `\`pentagate consent pending --cloud ${url} --cloud-key-file ${requireOption(args, 'cloud-key-file')}\` lists what waits`
        : `${moves.length} moves of robot ${robotId} wait for consent: pick one with --intent-digest (${moves.map((m) => m.intentDigest.slice(0, 12)).join(', ')}…)`,
    );
  }
  return { cloud, move: moves[0]! };
}
