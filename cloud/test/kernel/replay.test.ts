/**
 * Replay: every kernel decision in this run's log, replayed from its stored input under its stored policy
 * version, reproduces itself; a what-if under another stored policy version names the differences.
 */
import t from 'tap';
import {
  get,
  kernelCloud,
  ledgerWrite,
  policyUpdate,
  post,
  shellInvoke,
  vaultWrite,
} from './kernel-helpers.js';
import { EXAMPLE_POLICY } from '../helpers/cloud-app.js';

t.test('replaying every decision in the log reproduces each one', async (t) => {
  const c = await kernelCloud(t);
  const key = c.a.keys.agent;
  const actions = [
    ledgerWrite(100),
    ledgerWrite(950), // over the remaining budget → DENY
    ledgerWrite(10, 'billing-bot', { context: { agentId: 'billing-bot', confidenceScore: 0.3 } }),
    vaultWrite(),
    policyUpdate(),
    shellInvoke(),
    ledgerWrite(5),
    ledgerWrite(5),
  ];
  for (const a of actions) {
    await post(c, key, '/api/v1/kernel/authorize', a);
    c.advance(1000); // replay must use the stored clock, not today's
  }
  const decisions = (
    await get(c, c.a.keys.auditor, '/api/v1/kernel/audit/events?type=decision&limit=500')
  ).json().events as { data: { proposalId?: string; outcome: string } }[];
  const kernel = decisions.filter((e) => e.data.proposalId);
  t.equal(kernel.length, actions.length, 'every decision is in the log');
  t.same(
    new Set(kernel.map((e) => e.data.outcome)),
    new Set(['ALLOW', 'DENY', 'REQUIRE_HUMAN', 'HELD_FOR_VETO']),
  );
  for (const e of kernel) {
    const r = (await get(c, c.a.keys.auditor, `/api/v1/kernel/replay/${e.data.proposalId}`)).json();
    t.equal(r.identical, true, `${e.data.proposalId} (${e.data.outcome}) replays identically`);
    t.same(r.differences, []);
    t.equal(r.replayed.status, e.data.outcome);
  }
});

t.test('a what-if under another stored policy version reports the differences', async (t) => {
  const c = await kernelCloud(t);
  const d = (await post(c, c.a.keys.agent, '/api/v1/kernel/authorize', ledgerWrite(400))).json();
  t.equal(d.status, 'ALLOW');
  const strict = EXAMPLE_POLICY.replace('id: acme-default', 'id: acme-strict').replace(
    'amount: 1000',
    'amount: 300',
  );
  const { policy } = await c.app.cloud.policies.install(c.a.id, strict, 'strict.yaml', c.app.cloud.audit);
  const r = (
    await get(c, c.a.keys.auditor, `/api/v1/kernel/replay/${d.proposalId}?policy=${policy.digest}`)
  ).json();
  t.equal(r.identical, false);
  t.equal(r.replayed.status, 'DENY');
  t.same(
    r.differences.map((x: { path: string }) => x.path).filter((p: string) => !p.startsWith('/violations/0/')),
    ['/expiresAt', '/policyDigest', '/remediation', '/status', '/violations/0'],
  );
  t.equal(r.differences.find((x: { path: string }) => x.path === '/status').original, 'ALLOW');
  const same = (await get(c, c.a.keys.auditor, `/api/v1/kernel/replay/${d.proposalId}`)).json();
  t.equal(same.identical, true, 'without ?policy the stored version is used, not the newer one');
  const unknown = await get(
    c,
    c.a.keys.auditor,
    `/api/v1/kernel/replay/${d.proposalId}?policy=${'0'.repeat(64)}`,
  );
  t.equal(unknown.statusCode, 404);
  t.equal(unknown.json().error.code, 'POLICY_NOT_FOUND');
});

const RACE_POLICY = `
version: 1
id: race
budgets:
  - id: tight
    lobe: "*"
    amount: 1000
    windowMs: 3600000
    reservePercent: 0
metabolic:
  maxIdentical: 10000
  maxNearIdentical: 10000
  probing:
    enabled: false
`;

t.test(
  'concurrent authorizes never overspend, and a lost budget race replays as the same DENY',
  async (t) => {
    const c = await kernelCloud(t, { policyText: RACE_POLICY });
    const responses = await Promise.all(
      Array.from({ length: 25 }, () =>
        post(c, c.a.keys.agent, '/api/v1/kernel/authorize', ledgerWrite(100, 'racer')),
      ),
    );
    const decisions = responses.map((r) => r.json());
    const allowed = decisions.filter((d) => d.status === 'ALLOW');
    t.equal(allowed.length, 10, 'exactly what fits the budget is allowed');
    const lost = decisions.filter((d) => d.status === 'DENY');
    t.equal(lost.length, 15);
    t.ok(lost.every((d) => d.violations.some((v: { code: string }) => v.code === 'ECONOMY.BUDGET_EXCEEDED')));
    const totals = await c.store.ledgerTotals(c.a.id, 'racer', 3_600_000, c.clock.nowMs);
    t.same(totals, { spent: 0, reserved: 1000 });
    for (const d of [...lost.slice(0, 3), allowed[0]]) {
      const r = (await get(c, c.a.keys.auditor, `/api/v1/kernel/replay/${d.proposalId}`)).json();
      t.equal(r.identical, true, `${d.status} replays identically`);
    }
    const denied = await post(c, c.a.keys.agent, '/api/v1/kernel/execute', {
      proposalId: lost[0].proposalId,
    });
    t.equal(denied.json().error.code, 'EXECUTION_DENIED', 'a proposal that lost the race cannot execute');
  },
);
