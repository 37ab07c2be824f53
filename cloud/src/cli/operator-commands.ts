/**
 * `pentagate cloud operator enroll|list`: operators' own Ed25519 consent keys (fleet/operator-keys.ts).
 * Only a public key is ever given to the cloud; `--key` derives it from the operator's key file on this
 * machine, for a local set-up, and reads nothing else from it.
 */
import { ed25519PublicKey, readEd25519KeyFile } from '@pentagate/crypto';
import { type Command, InvalidInputError, requireOption, toBase64Url, UsageError } from '@pentagate/protocol';
import { enrollOperatorKey } from '../fleet/operator-keys.js';
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
    'An operator enrols their own key over HTTP with PUT /api/v1/fleet/operator-key (the console does this).',
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
      return enrollOperatorKey(fleet, store, { tenantId, operatorId, publicKey, actor: 'system' });
    });
    if (args.options.json) {
      io.out(JSON.stringify({ operatorId, kid: enrolled.key.kid, auditIndex: enrolled.auditIndex }));
    } else {
      io.out(
        `operator ${operatorId}: consent key ${enrolled.key.kid} enrolled (audit entry ${enrolled.auditIndex})`,
      );
    }
    return 0;
  },
};

export const operatorListCommand: Command = {
  path: ['cloud', 'operator', 'list'],
  summary: "List a tenant's enrolled operator consent keys",
  usage: '--tenant ID [--db …] [--json]',
  description:
    'Lists operator ids with their key ids and public keys.\nExit codes: 0 listed, 2 bad usage or store.',
  options: { ...TENANT_OPTION, ...STATE_OPTIONS, ...JSON_OPTION },
  async run(args, io) {
    const tenantId = requireOption(args, 'tenant');
    const keys = await withFleet(args, (_store, fleet) => fleet.listOperatorKeys(tenantId));
    const rows = keys.map((k) => ({
      operatorId: k.operatorId,
      kid: k.kid,
      publicKey: k.publicKey,
      enrolledAt: new Date(k.createdAtMs).toISOString(),
    }));
    if (args.options.json) io.out(JSON.stringify({ operators: rows }));
    else {
      for (const r of rows) io.out(`${r.operatorId}  ${r.kid}  ${r.publicKey}  enrolled ${r.enrolledAt}`);
      if (rows.length === 0) io.out('(no operator keys)');
    }
    return 0;
  },
};
