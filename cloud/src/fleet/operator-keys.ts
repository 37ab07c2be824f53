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
import { AuditLog } from '../audit/audit-log.js';
import type { FleetStore, OperatorKeyRecord } from '../store/fleet-store.js';
import type { Store } from '../store/store.js';

export interface EnrolledOperatorKey {
  key: OperatorKeyRecord;
  auditIndex: number;
}

/** Checks and stores `publicKey` (raw 32 bytes, base64url) as the consent key of `operatorId`. */
export async function enrollOperatorKey(
  fleet: FleetStore,
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
  if (problem) throw new InvalidInputError(`operator public key: refused, ${problem}`);
  const key: OperatorKeyRecord = {
    tenantId: enrolment.tenantId,
    operatorId: enrolment.operatorId,
    kid: ed25519KeyId(raw),
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
 * The tenant's active operator keys as trust entries: role operator, `name` the operator they sign for. An
 * operator that enrolled for itself is named by its API key's id; once that API key is revoked its consent
 * key is no longer trusted either (the private key stays in the operator's browser or key file, so the
 * revocation of the operator must also end what it can sign).
 */
export async function operatorTrustedKeys(
  fleet: FleetStore,
  platform: Pick<Store, 'listApiKeys'>,
  tenantId: string,
): Promise<TrustedKey[]> {
  const [keys, apiKeys] = await Promise.all([
    fleet.listOperatorKeys(tenantId),
    platform.listApiKeys(tenantId),
  ]);
  const revoked = new Set(apiKeys.filter((k) => k.revokedAtMs !== null).map((k) => k.id));
  return keys
    .filter((k) => k.retiredAtMs === null && !revoked.has(k.operatorId))
    .map((k) => ({
      kid: k.kid,
      alg: 'Ed25519' as const,
      role: 'operator' as const,
      publicKey: k.publicKey,
      // No notBefore: an edge whose clock lags the cloud's would refuse a key enrolled a moment ago.
      name: k.operatorId,
    }));
}
