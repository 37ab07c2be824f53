import t from 'tap';
import {
  AuthorizationDecisionSchema,
  ExecutionResultSchema,
  ProposedActionSchema,
  ReplayResultSchema,
  VERTICES,
  ViolationSchema,
  conforms,
} from '@pentagate/protocol';
import { authorizationDecision, executionResult, proposedAction, replayResult } from './fixtures.js';
import { drop, refusesEach, set } from './refusal.js';

refusesEach(t, 'proposed action', ProposedActionSchema, proposedAction, [
  ['missing type', drop('/type'), '/type'],
  ['an action type outside the closed set', set('/type', 'shell:exec'), '/type'],
  ['the old name actionType beside type', set('/actionType', 'ledger:write'), '/actionType'],
  ['missing confidenceScore', drop('/context/confidenceScore'), '/context/confidenceScore'],
  ['payload as an array', set('/payload', []), '/payload'],
  ['missing context', drop('/context'), '/context'],
  ['missing agentId', drop('/context/agentId'), '/context/agentId'],
  ['confidence above 1', set('/context/confidenceScore', 1.01), '/context/confidenceScore'],
  ['confidence below 0', set('/context/confidenceScore', -0.1), '/context/confidenceScore'],
  ['NaN confidence', set('/context/confidenceScore', Number.NaN), '/context/confidenceScore'],
  ['reason with a NUL character', set('/context/reason', 'pay\u0000now'), '/context/reason'],
  ['reason beyond 2048 chars', set('/context/reason', 'x'.repeat(2049)), '/context/reason'],
  ['idempotency key with a slash', set('/idempotencyKey', 'a/b'), '/idempotencyKey'],
  ['extra member in context', set('/context/isAdmin', true), '/context/isAdmin'],
  ['extra member', set('/bypass', true), '/bypass'],
]);

t.test('proposed action: the minimal proposal needs only type, payload, agent and confidence', async (t) => {
  t.ok(
    conforms(ProposedActionSchema, {
      type: 'actuator:stop',
      payload: {},
      context: { agentId: 'a', confidenceScore: 0.9 },
    }),
  );
  t.ok(
    conforms(ProposedActionSchema, {
      ...proposedAction(),
      context: { agentId: 'a', confidenceScore: 0.9, reason: 'multi-line\nreason\twith tab' },
    }),
    'newlines and tabs are fine in a reason',
  );
});

refusesEach(t, 'authorization decision', AuthorizationDecisionSchema, authorizationDecision, [
  ['missing status', drop('/status'), '/status'],
  ['status in lower case', set('/status', 'allow'), '/status'],
  ['missing violations', drop('/violations'), '/violations'],
  ['violation of an unknown vertex', set('/violations/0/vertex', 'SAFETY'), '/violations/0/vertex'],
  ['violation code without a vertex prefix', set('/violations/0/code', 'BUDGET'), '/violations/0/code'],
  ['violation without message', drop('/violations/0/message'), '/violations/0/message'],
  ['holdUntil that is not a timestamp', set('/holdUntil', 'soon'), '/holdUntil'],
  ['missing expiresAt', drop('/expiresAt'), '/expiresAt'],
  ['policyDigest in upper case', set('/policyDigest', 'F'.repeat(64)), '/policyDigest'],
  ['a proof without envelope', drop('/proof/envelope'), '/proof/envelope'],
  ['extra member', set('/score', 1), '/score'],
]);

t.test('violation: each vertex of the pentagon is accepted', async (t) => {
  t.same([...VERTICES], ['INVARIANT', 'ECONOMY', 'RISK', 'PROVENANCE', 'CONSENT']);
  for (const vertex of VERTICES) {
    t.ok(conforms(ViolationSchema, { code: `${vertex}.SOMETHING_1`, vertex, message: 'm' }), vertex);
  }
});

refusesEach(t, 'execution result', ExecutionResultSchema, executionResult, [
  ['executed false', set('/executed', false), '/executed'],
  ['missing executedAt', drop('/executedAt'), '/executedAt'],
  ['auditIndex fractional', set('/auditIndex', 1.5), '/auditIndex'],
  ['extra member', set('/output', 'x'), '/output'],
]);

refusesEach(t, 'replay result', ReplayResultSchema, replayResult, [
  ['missing original', drop('/original'), '/original'],
  ['replayed without status', drop('/replayed/status'), '/replayed/status'],
  ['identical as a string', set('/identical', 'no'), '/identical'],
  ['difference path that is not a JSON Pointer', set('/differences/0/path', 'status'), '/differences/0/path'],
  ['difference without path', drop('/differences/0/path'), '/differences/0/path'],
  ['extra member in a difference', set('/differences/0/note', 'x'), '/differences/0/note'],
]);
