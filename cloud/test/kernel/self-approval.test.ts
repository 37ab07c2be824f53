/**
 * Four-eyes on approvals (CONSENT, specification §1 item 9: "human approval is required for critical actions"):
 * a key that holds both the agent and the operator scopes (admin) proposes a REQUIRE_HUMAN action and cannot
 * approve it itself (403 SELF_APPROVAL_FORBIDDEN, the proposal stays pending and cannot execute); an operator's
 * key can. Withdrawing its own proposal (deny) stays open to the proposer.
 */
import t from 'tap';
import { issueApiKey } from '../../src/tenants/tenant-admin.js';
import { digestOf, get, kernelCloud, ledgerWrite, post } from './kernel-helpers.js';

const AUTHORIZE = '/api/v1/kernel/authorize';
const EXECUTE = '/api/v1/kernel/execute';
const needsHuman = (amount: number) =>
  ledgerWrite(amount, 'billing-bot', { context: { agentId: 'billing-bot', confidenceScore: 0.1 } });

t.test('the key that proposed cannot approve; another key can', async (t) => {
  const c = await kernelCloud(t);
  const action = needsHuman(20);
  const d = (await post(c, c.a.keys.admin, AUTHORIZE, action)).json();
  t.equal(d.status, 'REQUIRE_HUMAN');
  const url = `/api/v1/approvals/${d.proposalId}`;

  const self = await post(c, c.a.keys.admin, `${url}/approve`, { actionDigest: digestOf(action) });
  t.equal(self.statusCode, 403, 'the proposing key is refused');
  t.equal(self.json().error.code, 'SELF_APPROVAL_FORBIDDEN');
  t.match(self.json().error.message, /was made with this API key .*another key/);
  const pending = (await get(c, c.a.keys.operator, '/api/v1/approvals')).json().items;
  t.same(
    pending.map((i: { id: string }) => i.id),
    [d.proposalId],
    'the proposal is still pending',
  );
  t.equal(
    (await post(c, c.a.keys.admin, EXECUTE, { proposalId: d.proposalId })).statusCode,
    403,
    'and cannot run',
  );

  const byOperator = await post(c, c.a.keys.operator, `${url}/approve`, { actionDigest: digestOf(action) });
  t.equal(byOperator.statusCode, 200, "an operator's key approves it");
  t.equal((await post(c, c.a.keys.admin, EXECUTE, { proposalId: d.proposalId })).statusCode, 200);
});

t.test('an agent key proposes and an admin key approves: two keys, allowed', async (t) => {
  const c = await kernelCloud(t);
  const action = needsHuman(21);
  const d = (await post(c, c.a.keys.agent, AUTHORIZE, action)).json();
  const res = await post(c, c.a.keys.admin, `/api/v1/approvals/${d.proposalId}/approve`, {
    actionDigest: digestOf(action),
  });
  t.equal(res.statusCode, 200);
});

t.test('the proposing key may withdraw (deny) its own proposal', async (t) => {
  const c = await kernelCloud(t);
  const action = needsHuman(22);
  const d = (await post(c, c.a.keys.admin, AUTHORIZE, action)).json();
  const res = await post(c, c.a.keys.admin, `/api/v1/approvals/${d.proposalId}/deny`, {
    actionDigest: digestOf(action),
  });
  t.equal(res.statusCode, 200);
  t.equal(res.json().state, 'denied');
});

t.test('the approvals list names the proposing key and the agent it is bound to', async (t) => {
  const c = await kernelCloud(t);
  const unbound = (await post(c, c.a.keys.agent, AUTHORIZE, needsHuman(23))).json();
  const bound = (await issueApiKey(c.store, c.a.id, 'agent', Date.now(), { agent: 'billing-bot' })).key;
  const byBound = (await post(c, bound, AUTHORIZE, needsHuman(24))).json();
  t.equal(byBound.status, 'REQUIRE_HUMAN', byBound.error?.message);
  const items = (await get(c, c.a.keys.operator, '/api/v1/approvals')).json().items as {
    id: string;
    proposedBy?: { keyId: string; boundAgent: string | null };
  }[];
  const keys = await c.store.listApiKeys(c.a.id);
  const idOf = (scope: string, agentName: string | null) =>
    keys.find((k) => k.scope === scope && k.agentName === agentName)?.id;
  t.same(
    items.find((i) => i.id === unbound.proposalId)?.proposedBy,
    { keyId: idOf('agent', null), boundAgent: null },
    'an unbound key: the agent it names is its own claim',
  );
  t.same(
    items.find((i) => i.id === byBound.proposalId)?.proposedBy,
    { keyId: idOf('agent', 'billing-bot'), boundAgent: 'billing-bot' },
    'a bound key, with its agent',
  );
});
