/**
 * A loop limit holds for concurrent calls too (specification §1 item 10: the pre-gate rejects an endless
 * loop). An agent that sends the same call many times at once used to have every one evaluated against the
 * history as it stood before any of them committed, so all were approved. The history is read again inside
 * the decision's transaction (DecisionWrite.history): exactly `maxIdentical` are approved, the rest are
 * ECONOMY.LOOP_IDENTICAL vetoes that reserved nothing, and a veto replays as itself from its stored input.
 * Run on SQLite, and on PostgreSQL with two replicas sharing one database.
 */
import t, { type Test } from 'tap';
import type { CloudApp } from '../../src/app/build-app.js';
import type { Store } from '../../src/store/store.js';
import { barrierAtCommit, proposeAtOnce, twoReplicas } from '../helpers/budget-race.js';
import { bearer, testCloud, testTenant, transferCall } from '../helpers/cloud-app.js';
import { openTestPostgres, requirePostgres } from '../helpers/postgres.js';

const MAX_IDENTICAL = 3;
const CALLS = 12;
const SPEND = 10;

const LOOP_POLICY = `
version: 1
id: loop-race
budgets:
  - id: roomy
    lobe: "*"
    amount: 100000
    windowMs: 3600000
    reservePercent: 0
    unit: USD
metabolic:
  maxIdentical: ${MAX_IDENTICAL}
  maxNearIdentical: 10000
  probing:
    enabled: false
`;

type Tap = Test;

async function loopRace(
  t: Tap,
  apps: CloudApp[],
  store: Store,
  keys: { agent: string; auditor: string },
  tenantId: string,
) {
  // the same call every time (a fresh tool-call id each, as an agent retrying in a loop sends)
  const { lobe, responses } = await proposeAtOnce(
    apps,
    keys.agent,
    'looper',
    (lobe) => transferCall(lobe, SPEND),
    CALLS,
  );
  t.ok(
    responses.every((r) => r.statusCode === 200),
    'every call got a verdict',
  );
  const bodies = responses.map((r) => r.json());
  const approved = bodies.filter((b) => b.approved);
  t.equal(approved.length, MAX_IDENTICAL, `exactly ${MAX_IDENTICAL} identical calls are approved`);
  const vetoed = bodies.filter((b) => !b.approved);
  t.ok(
    vetoed.every((b) =>
      b.violation_details.some((v: { code: string }) => v.code === 'ECONOMY.LOOP_IDENTICAL'),
    ),
    'every other call is a loop veto',
  );
  const agent = await store.findAgentByLobe(tenantId, lobe);
  const totals = await store.ledgerTotals(tenantId, agent!.id, 3_600_000, Date.now());
  t.equal(totals.reserved, MAX_IDENTICAL * SPEND, 'the vetoed calls reserved nothing');
  const events = (
    await apps[0]!.inject({
      method: 'GET',
      url: '/api/v1/kernel/audit/events?type=decision&limit=500',
      headers: bearer(keys.auditor),
    })
  ).json().events as { data: { proposalId: string; outcome: string; reservedBudget: number } }[];
  t.equal(events.length, CALLS, 'every call has its decision in the log');
  t.equal(events.filter((e) => e.data.outcome === 'DENY').length, CALLS - MAX_IDENTICAL);
  t.ok(
    events.every((e) => (e.data.outcome === 'DENY') === (e.data.reservedBudget === 0)),
    'the signed decisions reserve exactly for the approvals',
  );
  for (const e of events) {
    const r = await apps[0]!.inject({
      method: 'GET',
      url: `/api/v1/kernel/replay/${e.data.proposalId}`,
      headers: bearer(keys.auditor),
    });
    t.equal(r.json().identical, true, `${e.data.outcome} ${e.data.proposalId} replays as itself`);
  }
}

t.test(
  'SQLite: concurrent identical calls, all evaluated before any committed, stop at the loop limit',
  async (t) => {
    const cloud = await testCloud(t, { policyText: LOOP_POLICY });
    barrierAtCommit(cloud.store, CALLS);
    await loopRace(t, [cloud.app], cloud.store, cloud.a.keys, cloud.a.id);
  },
);

t.test('PostgreSQL, two replicas: concurrent identical calls stop at the loop limit', async (t) => {
  if (!(await requirePostgres(t))) return;
  const store = await openTestPostgres(t);
  const tenant = await testTenant(store, 'loop');
  barrierAtCommit(store, CALLS);
  const replicas = await twoReplicas(t, store, LOOP_POLICY);
  await loopRace(t, replicas, store, tenant.keys, tenant.id);
});
