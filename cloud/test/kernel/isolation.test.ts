/**
 * Cross-tenant isolation of proposals, approvals and audit events (ARCHITECTURE.md §6): another tenant's
 * proposal id is answered exactly like an unknown one, and lists and event pages hold only the caller's.
 */
import t from 'tap';
import { EXAMPLE_POLICY } from '../helpers/cloud-app.js';
import { digestOf, get, kernelCloud, ledgerWrite, post, vaultWrite } from './kernel-helpers.js';

t.test("one tenant never sees or touches another tenant's proposals, approvals or events", async (t) => {
  const c = await kernelCloud(t);
  const allowA = (
    await post(c, c.a.keys.agent, '/api/v1/kernel/authorize', ledgerWrite(10, 'shared-name'))
  ).json();
  const action = vaultWrite('shared-name');
  const humanA = (await post(c, c.a.keys.agent, '/api/v1/kernel/authorize', action)).json();
  await post(c, c.b.keys.agent, '/api/v1/kernel/authorize', ledgerWrite(10, 'shared-name'));

  const execB = await post(c, c.b.keys.agent, '/api/v1/kernel/execute', { proposalId: allowA.proposalId });
  t.equal(execB.statusCode, 404);
  t.equal(execB.json().error.code, 'PROPOSAL_NOT_FOUND');
  t.equal((await get(c, c.b.keys.auditor, `/api/v1/kernel/replay/${allowA.proposalId}`)).statusCode, 404);
  const approveB = await post(c, c.b.keys.operator, `/api/v1/approvals/${humanA.proposalId}/approve`, {
    actionDigest: digestOf(action),
  });
  t.equal(approveB.statusCode, 404);
  t.same(
    (await get(c, c.b.keys.operator, '/api/v1/approvals')).json().items,
    [],
    "b's queue holds nothing of a's",
  );
  t.equal((await get(c, c.a.keys.operator, '/api/v1/approvals')).json().items.length, 1);

  const eventsB = (await get(c, c.b.keys.auditor, '/api/v1/kernel/audit/events?limit=500')).json().events;
  t.ok(eventsB.length > 0);
  t.ok(
    eventsB.every((e: { tenantId?: string }) => e.tenantId === c.b.id),
    "b's events are all b's",
  );
  const byProposal = await get(
    c,
    c.b.keys.auditor,
    `/api/v1/kernel/audit/events?proposalId=${allowA.proposalId}`,
  );
  t.same(byProposal.json().events, []);
  t.equal(
    (await post(c, c.a.keys.agent, '/api/v1/kernel/execute', { proposalId: allowA.proposalId })).statusCode,
    200,
  );
});

t.test('audit events: filters, time range and cursor pages', async (t) => {
  const c = await kernelCloud(t);
  const key = c.a.keys.agent;
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const d = (
      await post(c, key, '/api/v1/kernel/authorize', ledgerWrite(10, i % 2 ? 'odd-bot' : 'even-bot'))
    ).json();
    ids.push(d.proposalId);
    await post(c, key, '/api/v1/kernel/execute', { proposalId: d.proposalId });
  }
  const decisions = (await get(c, key, '/api/v1/kernel/audit/events?type=decision')).json().events;
  t.same(
    decisions.map((e: { data: { proposalId: string } }) => e.data.proposalId),
    ids,
  );
  const odd = (await get(c, key, '/api/v1/kernel/audit/events?agentId=odd-bot')).json().events;
  t.ok(odd.length >= 4, 'decision and execution entries of odd-bot');
  t.ok(
    odd.every(
      (e: { actor?: string; data: { agentId?: string } }) =>
        e.actor === 'odd-bot' || e.data.agentId === 'odd-bot',
    ),
  );
  const one = (await get(c, key, `/api/v1/kernel/audit/events?proposalId=${ids[2]}`)).json().events;
  t.same(
    one.map((e: { type: string }) => e.type),
    ['decision', 'execution'],
  );

  const pages: number[][] = [];
  let cursor: string | undefined;
  do {
    const q: string = `/api/v1/kernel/audit/events?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
    const page = (await get(c, key, q)).json();
    pages.push(page.events.map((e: { index: number }) => e.index));
    cursor = page.nextCursor;
  } while (cursor);
  const all = pages.flat();
  t.same(
    all,
    [...all].sort((x, y) => x - y),
    'pages run in log order',
  );
  t.equal(new Set(all).size, all.length, 'no event twice');
  const everything = (await get(c, key, '/api/v1/kernel/audit/events?limit=500')).json().events;
  t.equal(all.length, everything.length, 'the pages together are the whole list');

  const future = c.clock.nowMs + 60_000;
  t.same((await get(c, key, `/api/v1/kernel/audit/events?from=${future}`)).json().events, []);
  t.equal(
    (await get(c, key, `/api/v1/kernel/audit/events?to=${future}&limit=500`)).json().events.length,
    everything.length,
  );
  for (const limit of ['501', '999', '1000', '123456789012345']) {
    const page = await get(c, key, `/api/v1/kernel/audit/events?limit=${limit}`);
    t.equal(page.statusCode, 200, `limit ${limit}: served`);
    t.equal(page.json().events.length, everything.length, `limit ${limit}: as a page of at most 500`);
  }
  for (const limit of ['0', '-1', '1e3', '01', '1234567890123456']) {
    const refused = await get(c, key, `/api/v1/kernel/audit/events?limit=${limit}`);
    t.equal(refused.statusCode, 400, `limit ${limit}: refused`);
  }
  const bad = await get(c, key, '/api/v1/kernel/audit/events?from=-1');
  t.equal(bad.statusCode, 400);
});

t.test("a what-if replay never runs under another tenant's policy version", async (t) => {
  const c = await kernelCloud(t);
  const url = await c.app.listen({ port: 0, host: '127.0.0.1' });
  const replay = (key: string, proposalId: string, digest: string) =>
    fetch(`${url}/api/v1/kernel/replay/${proposalId}?policy=${digest}`, {
      headers: { authorization: `Bearer ${key}` },
    });
  const strict = EXAMPLE_POLICY.replace('id: acme-default', 'id: tenant-a-private').replace(
    'amount: 1000',
    'amount: 300',
  );
  const { policy } = await c.app.cloud.policies.install(c.a.id, strict, 'a.yaml', c.app.cloud.audit);
  const decidedA = (await post(c, c.a.keys.agent, '/api/v1/kernel/authorize', ledgerWrite(400))).json();
  const decidedB = (await post(c, c.b.keys.agent, '/api/v1/kernel/authorize', ledgerWrite(400))).json();
  t.equal(decidedA.policyDigest, policy.digest, "a's proposals are decided under a's own policy");

  // b, before and after a has replayed under its policy (which a loaded policy version stays cached after)
  const before = await replay(c.b.keys.auditor, decidedB.proposalId, policy.digest);
  t.equal((await replay(c.a.keys.auditor, decidedA.proposalId, policy.digest)).status, 200);
  const after = await replay(c.b.keys.auditor, decidedB.proposalId, policy.digest);
  for (const [when, res] of [
    ['before', before],
    ['after', after],
  ] as const) {
    t.equal(res.status, 404, `${when} a's replay: b is refused a's policy version`);
    t.equal((await res.json()).error.code, 'POLICY_NOT_FOUND', when);
  }
});
