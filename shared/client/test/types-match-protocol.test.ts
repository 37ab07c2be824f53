/**
 * The client copies the kernel wire types (it depends on nothing); this keeps the copies honest: the
 * const arrays equal @pentagate/protocol's, client-built values validate against the protocol schemas,
 * and (under `tsc`) each client type and its protocol twin are assignable both ways.
 */
import * as P from '@pentagate/protocol';
import t from 'tap';
import * as C from '../src/index.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// A compile error here means a client type drifted from the protocol schema.
const sameShapes: [
  Same<C.ActionType, P.ActionType>,
  Same<C.AuthorizationStatus, P.AuthorizationStatus>,
  Same<C.Violation, P.Violation>,
  Same<C.ProposedAction, P.ProposedAction>,
  Same<C.AuthorizationDecision, P.AuthorizationDecision>,
  Same<C.ExecutionResult, P.ExecutionResult>,
  Same<C.ReplayResult, P.ReplayResult>,
  Same<C.ProofPacket, P.ProofPacket>,
  Same<C.AuditEntry, P.AuditEntry>,
] = [true, true, true, true, true, true, true, true, true];

t.test('const arrays equal the protocol ones', async (t) => {
  t.same(C.ACTION_TYPES, P.ACTION_TYPES);
  t.same(C.AUTHORIZATION_STATUSES, P.AUTHORIZATION_STATUSES);
  t.same(C.VERTICES, P.VERTICES);
  t.ok(sameShapes.every(Boolean));
});

t.test('client-built values validate against the protocol schemas', async (t) => {
  for (const actionType of C.ACTION_TYPES) {
    const action: C.ProposedAction = {
      type: actionType,
      payload: { amount: 1, recipient: 'r' },
      context: { agentId: 'a-1', confidenceScore: 0.5, sessionId: 's-1', reason: 'because' },
      idempotencyKey: 'k-1',
    };
    t.ok(P.conforms(P.ProposedActionSchema, action), actionType);
  }
  for (const status of C.AUTHORIZATION_STATUSES) {
    const decision: C.AuthorizationDecision = {
      proposalId: 'prp_1',
      status,
      violations: [{ code: 'CONSENT.LOW_CONFIDENCE', vertex: 'CONSENT', message: 'low' }],
      remediation: 'wait',
      holdUntil: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-01T00:05:00.000Z',
      policyDigest: 'a'.repeat(64),
    };
    t.ok(P.conforms(P.AuthorizationDecisionSchema, decision), status);
  }
  const result: C.ExecutionResult = {
    executionId: 'exe_1',
    proposalId: 'prp_1',
    executed: true,
    executedAt: '2026-01-01T00:00:00.000Z',
    auditIndex: 3,
  };
  t.ok(P.conforms(P.ExecutionResultSchema, result));
});
