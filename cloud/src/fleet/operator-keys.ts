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
 * Who asks for an enrolment. `self`: an operator's API key enrolling for itself (the console, on first
 * signature) — it may enrol a first key, or the key it already has again, but never replace an active key
 * with another: the API key is a bearer secret, and were it enough to swap the consent key, whoever stole it
 * could sign consent with a key of their own, so the operator's private key would be no second factor at
 * all. `admin`: an admin API key or `pentagate cloud operator enroll` on the server, the out-of-band
 * authority that may replace a key (a lost browser profile, a rotation).
 */
export type EnrolmentAuthority = 'self' | 'admin';

/**
 * Checks and stores `publicKey` (raw 32 bytes, base64url) as the consent key of `operatorId`. A key already
 * enrolled for another active operator of the tenant is refused (OPERATOR_KEY_CONFLICT): a key signs for one
 * operator only, and a second entry with its key id would make the tenant's trust document ambiguous. A
 * `self` enrolment that would replace the operator's active key is refused (OPERATOR_KEY_ENROLLED).
 */
export async function enrollOperatorKey(
  fleet: FleetStore,
  platform: Pick<Store, 'listApiKeys'>,
  enrolment: {
    tenantId: string;
    operatorId: string;
    publicKey: string;
    actor: string;
    authority: EnrolmentAuthority;
  },
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
  const active = await activeOperatorKeys(fleet, platform, enrolment.tenantId);
  const current = active.find((k) => k.operatorId === enrolment.operatorId);
  if (current && current.kid !== kid && enrolment.authority === 'self') {
    throw new ApiError(
      'OPERATOR_KEY_ENROLLED',
      `operator ${enrolment.operatorId} already has consent key ${current.kid} enrolled; an operator's API key ` +
        'cannot replace it (it would let whoever holds the API key sign consent with a key of their own). ' +
        `An admin retires it first (DELETE /api/v1/fleet/operator-key/${enrolment.operatorId} or ` +
        '`pentagate cloud operator retire`), or enrols the new key',
    );
  }
  const holder = active.find((k) => k.kid === kid && k.operatorId !== enrolment.operatorId);
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
  return storeOperatorKey(fleet, key, 'enroll', enrolment.actor, nowMs);
}

/**
 * Retires the active consent key of `operatorId` (audited, `operator.key` with action `retire`): the cloud
 * refuses its tokens from then on, and an edge linked to the cloud reads the tenant's operator keys again
 * before a token signed by one of them releases a move (edge/src/uplink/consent-relay.ts, `hold`), so a token
 * this key signed — relayed before, or published on a robot's consent topic — releases nothing from the
 * commit on. Undefined when the operator has no active key.
 */
export async function retireOperatorKey(
  fleet: FleetStore,
  platform: Pick<Store, 'listApiKeys'>,
  retirement: { tenantId: string; operatorId: string; actor: string },
  nowMs: number = Date.now(),
): Promise<EnrolledOperatorKey | undefined> {
  const current = (await activeOperatorKeys(fleet, platform, retirement.tenantId)).find(
    (k) => k.operatorId === retirement.operatorId,
  );
  if (!current) return undefined;
  const key: OperatorKeyRecord = { ...current, retiredAtMs: nowMs };
  return storeOperatorKey(fleet, key, 'retire', retirement.actor, nowMs);
}

/** Stores `key` with its `operator.key` audit entry (one transaction): every enrolment and retirement is
 * recorded in the same shape, so an auditor reads a key's whole history from one entry type. */
async function storeOperatorKey(
  fleet: FleetStore,
  key: OperatorKeyRecord,
  action: 'enroll' | 'retire',
  actor: string,
  nowMs: number,
): Promise<EnrolledOperatorKey> {
  const audit = await fleet.putOperatorKey(
    key,
    AuditLog.builder(
      {
        type: 'operator.key',
        tenantId: key.tenantId,
        actor,
        data: { action, operatorId: key.operatorId, kid: key.kid, publicKey: key.publicKey },
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
