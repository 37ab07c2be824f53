/**
 * Operators' own Ed25519 consent keys, enrolled per tenant (the robot registry's operator half). Only the
 * public key is ever sent or stored; the private key stays with the operator (a key file for
 * `pentagate consent grant`, a non-extractable WebCrypto key in the console). The cloud checks consent
 * tokens against these keys, and edges linked to the cloud trust them for their tenant's consent
 * (`GET /api/v1/fleet/robots/:robotId/operator-keys`), each only for the operator it was enrolled for.
 * Every enrolment is audited.
 */
import { ed25519KeyId, publicKeyProblem } from '@pentagate/crypto';
import {
  conforms,
  fromBase64Url,
  IdentifierSchema,
  InvalidInputError,
  type TrustedKey,
} from '@pentagate/protocol';
import { ApiError } from '../app/errors.js';
import { AuditLog } from '../audit/audit-log.js';
import type { FleetStore, OperatorKeyRecord } from '../store/fleet-store.js';
import type { Store } from '../store/store.js';

export interface EnrolledOperatorKey {
  key: OperatorKeyRecord;
  auditIndex: number;
}

/**
 * Checks and stores `publicKey` (raw 32 bytes, base64url) as the consent key of `operatorId`. A key already
 * enrolled for another active operator of the tenant is refused (OPERATOR_KEY_CONFLICT): a key signs for one
 * operator only, and a second entry with its key id would make the tenant's trust document ambiguous.
 */
export async function enrollOperatorKey(
  fleet: FleetStore,
  platform: Pick<Store, 'listApiKeys'>,
  enrolment: { tenantId: string; operatorId: string; publicKey: string; actor: string },
  nowMs: number = Date.now(),
): Promise<EnrolledOperatorKey> {
  if (!conforms(IdentifierSchema, enrolment.operatorId)) {
    throw new InvalidInputError(
      `operator id: expected 1..128 characters [A-Za-z0-9._:@-] starting with a letter or digit, got ${JSON.stringify(enrolment.operatorId)}`,
    );
  }
  const raw = fromBase64Url(enrolment.publicKey, 'operator public key', 32);
  const problem = publicKeyProblem(raw);
  if (problem) {
    throw new ApiError('INVALID_BODY', `publicKey: refused, ${problem}`, {
      issues: [{ path: '/publicKey', message: `refused, ${problem}` }],
    });
  }
  const kid = ed25519KeyId(raw);
  const holder = (await activeOperatorKeys(fleet, platform, enrolment.tenantId)).find(
    (k) => k.kid === kid && k.operatorId !== enrolment.operatorId,
  );
  if (holder) {
    throw new ApiError(
      'OPERATOR_KEY_CONFLICT',
      `publicKey: key ${kid} is enrolled for operator ${holder.operatorId}; a consent key signs for one operator only, so ${enrolment.operatorId} needs a key of its own`,
    );
  }
  const key: OperatorKeyRecord = {
    tenantId: enrolment.tenantId,
    operatorId: enrolment.operatorId,
    kid,
    publicKey: enrolment.publicKey,
    createdAtMs: nowMs,
    retiredAtMs: null,
  };
  const audit = await fleet.putOperatorKey(
    key,
    AuditLog.builder(
      {
        type: 'operator.key',
        tenantId: key.tenantId,
        actor: enrolment.actor,
        data: { action: 'enroll', operatorId: key.operatorId, kid: key.kid, publicKey: key.publicKey },
      },
      nowMs,
    ),
  );
  return { key, auditIndex: audit.index };
}

/**
 * The tenant's operator keys still trusted: not retired, and not enrolled for an operator whose API key (an
 * operator that enrolled for itself is named by its key's id) was revoked — the private key stays in the
 * operator's browser or key file, so the revocation of the operator must also end what it can sign.
 */
async function activeOperatorKeys(
  fleet: FleetStore,
  platform: Pick<Store, 'listApiKeys'>,
  tenantId: string,
): Promise<OperatorKeyRecord[]> {
  const [keys, apiKeys] = await Promise.all([
    fleet.listOperatorKeys(tenantId),
    platform.listApiKeys(tenantId),
  ]);
  const revoked = new Set(apiKeys.filter((k) => k.revokedAtMs !== null).map((k) => k.id));
  return keys.filter((k) => k.retiredAtMs === null && !revoked.has(k.operatorId));
}

/**
 * The tenant's active operator keys as trust entries: role operator, `name` the operator they sign for. A
 * key id enrolled for two operators (two enrolments that raced, or a store written before enrolment refused
 * it) is left out for both, fail closed: it cannot say whom it signs for, and a trust document holding one
 * key id twice is refused whole — by the grant route and by every edge — which would stop every
 * operator's consent in the tenant.
 */
export async function operatorTrustedKeys(
  fleet: FleetStore,
  platform: Pick<Store, 'listApiKeys'>,
  tenantId: string,
): Promise<TrustedKey[]> {
  const keys = await activeOperatorKeys(fleet, platform, tenantId);
  const operatorsOfKid = new Map<string, number>();
  for (const k of keys) operatorsOfKid.set(k.kid, (operatorsOfKid.get(k.kid) ?? 0) + 1);
  return keys
    .filter((k) => operatorsOfKid.get(k.kid) === 1)
    .map((k) => ({
      kid: k.kid,
      alg: 'Ed25519' as const,
      role: 'operator' as const,
      publicKey: k.publicKey,
      // No notBefore: an edge whose clock lags the cloud's would refuse a key enrolled a moment ago.
      name: k.operatorId,
    }));
}
