/**
 * `pentagate cloud operator enroll|retire|list`: operators' own Ed25519 consent keys (fleet/operator-keys.ts).
 * Only a public key is ever given to the cloud; `--key` derives it from the operator's key file on this
 * machine, for a local set-up, and reads nothing else from it.
 */
import { ed25519PublicKey, readEd25519KeyFile } from '@pentagate/crypto';
import {
  type CliIo,
  type Command,
  InvalidInputError,
  requireOption,
  toBase64Url,
  UsageError,
} from '@pentagate/protocol';
import { type EnrolledOperatorKey, enrollOperatorKey, retireOperatorKey } from '../fleet/operator-keys.js';
import { JSON_OPTION, STATE_OPTIONS } from './state.js';
import { TENANT_OPTION, withFleet } from './robot-commands.js';

async function publicKeyOf(args: Parameters<Command['run']>[0]): Promise<string> {
  const given = args.options['public-key'] as string | undefined;
  const keyFile = args.options.key as string | undefined;
  if ((given === undefined) === (keyFile === undefined)) {
    throw new UsageError('give one of --public-key B64URL or --key FILE');
  }
  if (given !== undefined) return given;
  return toBase64Url(ed25519PublicKey((await readEd25519KeyFile(keyFile as string)).seed));
}

export const operatorEnrollCommand: Command = {
  path: ['cloud', 'operator', 'enroll'],
  summary: "Enrol an operator's Ed25519 consent public key (the private key stays with the operator)",
  usage: '--tenant ID --operator ID (--public-key B64URL | --key FILE) [--db …] [--json]',
  description: [
    "Stores the operator's public key for robot consent in the tenant (replacing an earlier one) and audits",
    'it (`operator.key` entry). The cloud then accepts consent tokens that key signs for this operator and',
    'relays them to the robot; edges linked to the cloud trust it for consent. --public-key is the raw 32-byte',
    "key in unpadded base64url; --key derives it from the operator's key file (PEM or JWK).",
    'An operator enrols their own key over HTTP with PUT /api/v1/fleet/operator-key (the console does this);',
    "that route never lets an operator's API key replace an active key: this command (the server's admin) does.",
    'Exit codes: 0 enrolled, 2 bad usage, unknown tenant, an unusable key or store.',
  ].join('\n'),
  options: {
    ...TENANT_OPTION,
    operator: { type: 'string', valueName: 'ID', description: 'the operator id consent statements name' },
    'public-key': { type: 'string', valueName: 'B64URL', description: 'the raw Ed25519 public key' },
    key: { type: 'string', valueName: 'FILE', description: "the operator's key file (public key derived)" },
    ...STATE_OPTIONS,
    ...JSON_OPTION,
  },
  async run(args, io) {
    const tenantId = requireOption(args, 'tenant');
    const operatorId = requireOption(args, 'operator');
    const publicKey = await publicKeyOf(args);
    const enrolled = await withFleet(args, async (store, fleet) => {
      if (!(await store.getTenant(tenantId))) {
        throw new InvalidInputError(
          `tenant: expected an existing tenant id, got ${JSON.stringify(tenantId)}`,
        );
      }
      return enrollOperatorKey(fleet, store, {
        tenantId,
        operatorId,
        publicKey,
        actor: 'system',
        authority: 'admin',
      });
    });
    printKeyChange(io, args.options.json === true, operatorId, enrolled, 'enrolled');
    return 0;
  },
};

/** One line for an enrolment or a retirement, or its JSON `{ operatorId, kid, auditIndex }`. */
function printKeyChange(
  io: CliIo,
  json: boolean,
  operatorId: string,
  change: EnrolledOperatorKey,
  what: 'enrolled' | 'retired',
): void {
  const { kid } = change.key;
  if (json) io.out(JSON.stringify({ operatorId, kid, auditIndex: change.auditIndex }));
  else io.out(`operator ${operatorId}: consent key ${kid} ${what} (audit entry ${change.auditIndex})`);
}

export const operatorRetireCommand: Command = {
  path: ['cloud', 'operator', 'retire'],
  summary: "Retire an operator's consent key (its tokens are refused; edges stop trusting it)",
  usage: '--tenant ID --operator ID [--db …] [--json]',
  description: [
    "Marks the operator's active consent key retired and audits it (`operator.key`, action retire). The cloud",
    'refuses consent tokens it signs from then on, and edges linked to the cloud drop it when they next read',
    "the tenant's operator keys. The operator can then enrol a new key (the console does so on its next",
    "signature): an operator's own API key can never replace an active key, only enrol one where none is.",
    'Also over HTTP with an admin key: DELETE /api/v1/fleet/operator-key/:operatorId.',
    '',
    'Exit codes: 0 retired; 1 the operator has no active key; 2 bad usage or store.',
  ].join('\n'),
  options: {
    ...TENANT_OPTION,
    operator: { type: 'string', valueName: 'ID', description: 'the operator whose key to retire' },
    ...STATE_OPTIONS,
    ...JSON_OPTION,
  },
  async run(args, io) {
    const tenantId = requireOption(args, 'tenant');
    const operatorId = requireOption(args, 'operator');
    const retired = await withFleet(args, (store, fleet) =>
      retireOperatorKey(fleet, store, { tenantId, operatorId, actor: 'system' }),
    );
    if (!retired) {
      io.err(
        `pentagate cloud operator retire: operator ${operatorId} has no active consent key in ${tenantId}`,
      );
      return 1;
    }
    printKeyChange(io, args.options.json === true, operatorId, retired, 'retired');
    return 0;
  },
};

export const operatorListCommand: Command = {
  path: ['cloud', 'operator', 'list'],
  summary: "List a tenant's enrolled operator consent keys",
  usage: '--tenant ID [--db …] [--json]',
  description:
    'Lists operator ids with their key ids and public keys, and when a key was retired.\nExit codes: 0 listed, 2 bad usage or store.',
  options: { ...TENANT_OPTION, ...STATE_OPTIONS, ...JSON_OPTION },
  async run(args, io) {
    const tenantId = requireOption(args, 'tenant');
    const keys = await withFleet(args, (_store, fleet) => fleet.listOperatorKeys(tenantId));
    const rows = keys.map((k) => ({
      operatorId: k.operatorId,
      kid: k.kid,
      publicKey: k.publicKey,
      enrolledAt: new Date(k.createdAtMs).toISOString(),
      ...(k.retiredAtMs === null ? {} : { retiredAt: new Date(k.retiredAtMs).toISOString() }),
    }));
    if (args.options.json) io.out(JSON.stringify({ operators: rows }));
    else {
      for (const r of rows) {
        const retired = r.retiredAt === undefined ? '' : `  retired ${r.retiredAt}`;
        io.out(`${r.operatorId}  ${r.kid}  ${r.publicKey}  enrolled ${r.enrolledAt}${retired}`);
      }
      if (rows.length === 0) io.out('(no operator keys)');
    }
    return 0;
  },
};
