/**
 * The signed record of one decision (ARCHITECTURE.md §5, contract `DecisionStatement`): an in-toto Statement v1
 * whose one subject is the action request, named by SHA-256(JCS(request)), and whose predicate records the
 * outcome, who asked, under which policy, the tier results, the budget reserved, the validity window and
 * the audit-log position. Signed as DSSE (payloadType application/vnd.in-toto+json) with the proof key.
 */
import { type Ed25519Signer, dsseSignStatement } from '@pentagate/crypto';
import {
  DECISION_PREDICATE_TYPE,
  type DecisionOutcome,
  type DecisionStatement,
  type DsseEnvelope,
  IN_TOTO_STATEMENT_TYPE,
  PAYLOAD_TYPES,
  type VerdictTiers,
} from '@pentagate/protocol';

/** The policy a decision was made under; with none loaded, the fixed placeholder below. */
export interface PolicyRef {
  id: string;
  digest: string;
}

/** Cited when no policy is loaded (every call refused): id `none`, digest SHA-256 of the empty string. */
export const NO_POLICY: PolicyRef = {
  id: 'none',
  digest: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
};

export interface DecisionStatementInput {
  subjectName: string;
  /**
   * SHA-256 (hex) of JCS(request), the request exactly as the agent sent it (after schema validation): taken
   * once per decision (authorize's actionDigest, the decision row's subject_digest) and reused by every
   * statement signed about it.
   */
  subjectDigest: string;
  decisionId: string;
  outcome: DecisionOutcome;
  tenantId: string;
  agentId: string;
  policy: PolicyRef;
  tiers: Record<string, unknown>;
  reservedBudget: number;
  issuedAtMs: number;
  expiresAtMs: number;
  auditOrigin: string;
  auditIndex: number;
}

export function decisionStatement(input: DecisionStatementInput): DecisionStatement {
  return {
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [{ name: input.subjectName, digest: { sha256: input.subjectDigest } }],
    predicateType: DECISION_PREDICATE_TYPE,
    predicate: {
      decisionId: input.decisionId,
      outcome: input.outcome,
      tenantId: input.tenantId,
      agentId: input.agentId,
      policy: { id: input.policy.id, digest: input.policy.digest },
      tiers: input.tiers,
      reservedBudget: input.reservedBudget,
      issuedAt: new Date(input.issuedAtMs).toISOString(),
      expiresAt: new Date(input.expiresAtMs).toISOString(),
      auditLog: { origin: input.auditOrigin, index: input.auditIndex },
    },
  };
}

export function signDecision(statement: DecisionStatement, signer: Ed25519Signer): DsseEnvelope {
  return dsseSignStatement(PAYLOAD_TYPES.inToto, statement, signer);
}

/** The predicate of a decision envelope's in-toto statement, read back from the signed payload. */
function signedPredicateOf(envelope: DsseEnvelope): { tiers: VerdictTiers; decisionId: string } {
  return JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')).predicate;
}

/** The tier results signed in a decision envelope, read back from it. */
export function signedTiersOf(envelope: DsseEnvelope): VerdictTiers {
  return signedPredicateOf(envelope).tiers;
}

/** The decision id signed in a decision envelope, read back from it. */
export function signedDecisionIdOf(envelope: DsseEnvelope): string {
  return signedPredicateOf(envelope).decisionId;
}
