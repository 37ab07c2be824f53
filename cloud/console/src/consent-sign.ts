/**
 * A consent token signed in the page (ARCHITECTURE.md §4 CONSENT): the ConsentStatement of
 * shared/protocol/src/schemas/consent.ts, as a DSSE v1 envelope whose signature covers
 * PAE(payloadType, JCS(statement)) — the same bytes `pentagate consent grant` signs
 * (edge/src/cli/consent-grant-command.ts) — made with the non-extractable WebCrypto key.
 */
import { pae } from '@pentagate/crypto';
import {
  type ConsentDecision,
  type ConsentStatement,
  ConsentStatementSchema,
  type DsseEnvelope,
  PAYLOAD_TYPES,
  canonicalBytes,
  toBase64,
  toBase64Url,
  validate,
} from '@pentagate/protocol';
import type { OperatorKey } from './operator-key.js';

/** How long a token signed here stays valid at most (the request's own deadline may be sooner). */
export const CONSENT_TTL_MS = 60_000;
const NONCE_BYTES = 18;

export interface ConsentSubject {
  robotId: string;
  intentDigest: string;
  scope: ConsentStatement['scope'];
  /** The edge's deadline for this request, Unix ms. */
  deadlineMs: number;
}

/** A statement granting (the default) or denying the subject's move, valid from `nowMs`. */
export function consentStatement(
  subject: ConsentSubject,
  operatorId: string,
  nowMs: number,
  decision: ConsentDecision = 'grant',
): ConsentStatement {
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  return validate(
    ConsentStatementSchema,
    {
      v: 1,
      intentDigest: subject.intentDigest,
      robotId: subject.robotId,
      operatorId,
      scope: subject.scope,
      notBefore: nowMs,
      expiresAt: Math.min(subject.deadlineMs, nowMs + CONSENT_TTL_MS),
      nonce: toBase64Url(nonce),
      // a grant carries no decision member, byte for byte the statement every edge version accepts
      ...(decision === 'deny' ? { decision } : {}),
    },
    'consent statement',
  );
}

export async function signConsent(statement: ConsentStatement, key: OperatorKey): Promise<DsseEnvelope> {
  const payload = canonicalBytes(statement);
  const message = pae(PAYLOAD_TYPES.consent, payload);
  const sig = new Uint8Array(
    await crypto.subtle.sign('Ed25519', key.pair.privateKey, new Uint8Array(message)),
  );
  return {
    payloadType: PAYLOAD_TYPES.consent,
    payload: toBase64(payload),
    signatures: [{ keyid: key.kid, sig: toBase64(sig) }],
  };
}
