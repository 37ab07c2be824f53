/**
 * ARCHITECTURE.md §6: a tenant's key never reads or changes another tenant's data. Each route that names
 * tenant data is tried with tenant B's key against tenant A's lobe, agent and decision, and tenant A's
 * data is checked unchanged afterwards.
 */
import t from 'tap';
import {
  bearer,
  registerLobe,
  registration,
  selfCorrectBody,
  testCloud,
  transferCall,
} from '../helpers/cloud-app.js';

t.test("no route lets tenant B see or touch tenant A's data", async (t) => {
  const cloud = await testCloud(t);
  const { a, b, app, store } = cloud;
  const lobe = await registerLobe(cloud, a, 'a-private');
  const proposed = await app.inject({
    method: 'POST',
    url: '/api/v1/agentgate/propose',
    headers: bearer(a.keys.agent),
    payload: transferCall(lobe, 100),
  });
  const decisionId = String(proposed.headers['x-pentagate-decision-id']);
  const agentA = (await store.findAgentByLobe(a.id, lobe))!;
  const ledgerBefore = await store.ledgerTotals(a.id, agentA.id, 3_600_000, Date.now());

  t.test("propose with A's lobe name: 404, and A's ledger is untouched", async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/agentgate/propose',
      headers: bearer(b.keys.agent),
      payload: transferCall(lobe, 100),
    });
    t.equal(res.statusCode, 404);
    t.same(await store.ledgerTotals(a.id, agentA.id, 3_600_000, Date.now()), ledgerBefore);
  });

  t.test("register with A's agent name and version: B gets its own agent; A's is unchanged", async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/agentgate/register',
      headers: bearer(b.keys.agent),
      payload: { ...registration('a-private', 'HR'), agent_version: '1.0.0' },
    });
    t.equal(res.statusCode, 201, "a new agent in B, not the idempotent repeat of A's");
    t.not((await store.findAgentByLobe(b.id, res.json().lobe_name))?.id, agentA.id);
    t.equal((await store.findAgentByLobe(a.id, lobe))?.domain, 'FINANCE');
    t.equal((await store.findAgentByLobe(b.id, res.json().lobe_name))?.domain, 'HR');
  });

  t.test("selfcorrect with A's agent id and lobe: B's own agent, never A's history or budget", async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/selfcorrect',
      headers: bearer(b.keys.agent),
      payload: selfCorrectBody(agentA.id, 10),
    });
    t.equal(res.statusCode, 200);
    t.equal((await store.findAgentById(b.id, agentA.id))?.tenantId, b.id);
    t.equal((await store.recentCalls(a.id, agentA.id, 0, 100)).length, 1, "A's history has only A's call");
    t.same(await store.ledgerTotals(a.id, agentA.id, 3_600_000, Date.now()), ledgerBefore);
  });

  t.test("proofs of A's decision: 404 for every scope of B", async (t) => {
    for (const scope of ['agent', 'auditor', 'operator', 'admin'] as const) {
      const res = await app.inject({
        method: 'GET',
        url: `/api/v1/proofs/${decisionId}`,
        headers: bearer(b.keys[scope]),
      });
      t.equal(res.statusCode, 404, scope);
    }
    const own = await app.inject({
      method: 'GET',
      url: `/api/v1/proofs/${decisionId}`,
      headers: bearer(a.keys.agent),
    });
    t.equal(own.statusCode, 200, 'A reads its own');
  });

  t.test('refusals caused by B are recorded under B, never under A', async (t) => {
    const size = await store.auditSize();
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/proofs/${decisionId}`,
      headers: bearer(b.keys.agent),
    });
    t.equal(res.statusCode, 404);
    const [entry] = await store.auditEntries(size, size + 1);
    t.equal(entry?.entry.type, 'refusal');
    t.equal(entry?.entry.tenantId, b.id);
  });
});
