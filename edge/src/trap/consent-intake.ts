/**
 * An operator's consent arriving at the edge (ARCHITECTURE.md §4 CONSENT): a DSSE envelope of a ConsentStatement
 * is verified against the operator keys this edge trusts, must name this robot, and then releases the intent it
 * is bound to (ConsentWaits checks digest, nonce, validity window and scope). The gates run again on the
 * released intent; whatever does not release one is refused with the reason, and what waits keeps waiting.
 */
import { type TrustStore, dsseVerifyStatement } from '@pentagate/crypto';
import {
  type ConsentStatement,
  ConsentStatementSchema,
  PAYLOAD_TYPES,
  edgeViolation,
} from '@pentagate/protocol';
import type { ParkedIntent } from '../gates/consent-request.js';
import type { CompiledProfile } from '../profile/compiled-profile.js';
import type { ConsentRefusal, ConsentWaits } from './consent-waits.js';
import type { TrapResult } from './trap-result.js';
import { veto } from './verdicts.js';

export function admitConsent(
  envelope: unknown,
  trust: TrustStore,
  cp: CompiledProfile,
  waits: ConsentWaits,
  nowMs: number,
): { released: ParkedIntent } | { denied: ParkedIntent; operatorId: string } | { refused: ConsentRefusal } {
  let statement: ConsentStatement;
  let keyid: string;
  try {
    ({ statement, keyid } = dsseVerifyStatement(envelope, trust, ConsentStatementSchema, {
      role: 'operator',
      payloadType: PAYLOAD_TYPES.consent,
      atMs: nowMs,
    }));
  } catch (err) {
    return { refused: { violation: edgeViolation('CONSENT.INVALID', `${(err as Error).message}`) } };
  }
  // A key enrolled for a named operator (the cloud's registry names each one) signs for that operator only,
  // as the cloud checks before relaying: another operator's key cannot put a colleague's name on a consent.
  const signerName = trust.get(keyid)?.name;
  if (signerName !== undefined && signerName !== statement.operatorId) {
    return {
      refused: {
        violation: edgeViolation(
          'CONSENT.INVALID',
          `key ${keyid} is enrolled for operator ${signerName}, the statement names ${statement.operatorId}`,
        ),
      },
    };
  }
  const robotId = cp.profile.robotId;
  if (statement.robotId !== robotId) {
    return {
      refused: {
        violation: edgeViolation(
          'CONSENT.WRONG_ROBOT',
          `consent is for robot ${statement.robotId}, this edge serves ${robotId}`,
        ),
      },
    };
  }
  const outcome = waits.release(statement, cp, nowMs);
  return 'denied' in outcome ? { ...outcome, operatorId: statement.operatorId } : outcome;
}

/** The veto of an intent an operator denied: it waits no longer, and nothing is signed for it. */
export function consentDenied(
  cp: CompiledProfile,
  denied: ParkedIntent,
  operatorId: string,
  nowMs: number,
): TrapResult {
  return veto({
    robotId: cp.profile.robotId,
    intentId: denied.intent.intentId,
    outcome: 'vetoed',
    atMs: nowMs,
    violations: [
      edgeViolation(
        'CONSENT.DENIED',
        `operator ${operatorId} denied the move (waiting since ${new Date(denied.sinceMs).toISOString()})`,
      ),
    ],
  });
}

/** The `consent-expired` veto of an intent whose wait ran out. */
export function consentExpired(cp: CompiledProfile, waited: ParkedIntent, nowMs: number): TrapResult {
  return veto({
    robotId: cp.profile.robotId,
    intentId: waited.intent.intentId,
    outcome: 'consent-expired',
    atMs: nowMs,
    violations: [
      edgeViolation(
        'CONSENT.TIMEOUT',
        `no valid consent within ${cp.profile.consent.timeoutMs} ms (waiting since ${new Date(waited.sinceMs).toISOString()})`,
      ),
    ],
  });
}
