/**
 * Many concurrent proposes never overspend (ARCHITECTURE.md §7: races are settled by the database). Evaluation
 * of every call sees the same empty ledger and approves it; the atomic reservation in the store lets only
 * what fits through and turns the rest into ECONOMY vetoes. Run on SQLite, and on PostgreSQL with two
 * replicas sharing one database.
 */
import t, { type Test } from 'tap';
import type { CloudApp } from '../../src/app/build-app.js';
import type { Store } from '../../src/store/store.js';
import { barrierAtCommit, proposeAtOnce, tightBudgetPolicy, twoReplicas } from '../helpers/budget-race.js';
import { testCloud, testTenant, transferCall } from '../helpers/cloud-app.js';
import { openTestPostgres, requirePostgres } from '../helpers/postgres.js';

const BUDGET = 1000;
const SPEND = 30;
const CALLS = 80;

const RACE_POLICY = tightBudgetPolicy('race', BUDGET);

function call(lobe: string, i: number): object {
  return transferCall(lobe, SPEND, {
    id: `race-${i}`,
    arguments: { recipient: `supplier-${i}`, amount: SPEND },
  });
}

async function race(
  t: Tap,
  apps: CloudApp[],
  store: Store,
  key: string,
  tenantId: string,
  expectStoreVetoes = false,
): Promise<void> {
  const { lobe, responses } = await proposeAtOnce(apps, key, 'racer', call, CALLS);
  const bodies = responses.map((r) => r.json());
  t.ok(
    responses.every((r) => r.statusCode === 200),
    'every call got a verdict',
  );
  const approved = bodies.filter((b) => b.approved).length;
  t.equal(approved, Math.floor(BUDGET / SPEND), 'exactly what fits is approved');
  t.ok(
    bodies
      .filter((b) => !b.approved)
      .every((b) => b.violation_details.some((v: { code: string }) => v.code === 'ECONOMY.BUDGET_EXCEEDED')),
    'every other call is an ECONOMY veto',
  );
  if (expectStoreVetoes) {
    t.ok(
      bodies.every(
        (b) =>
          b.approved ||
          b.violations.some((v: string) =>
            /^ECONOMY\.BUDGET_EXCEEDED: .*concurrent calls reserved the rest/.test(v),
          ),
      ),
      'every veto came from the store refusing the reservation, not from evaluation, worded `<CODE>: <detail>`',
    );
  }
  const agent = await store.findAgentByLobe(tenantId, lobe);
  const totals = await store.ledgerTotals(tenantId, agent!.id, 3_600_000, Date.now());
  t.equal(totals.reserved, approved * SPEND);
  t.ok(totals.reserved <= BUDGET, 'the ledger never exceeds the budget');
}

type Tap = Test;

t.test('SQLite: concurrent proposes never overspend', async (t) => {
  const cloud = await testCloud(t, { policyText: RACE_POLICY });
  await race(t, [cloud.app], cloud.store, cloud.a.keys.agent, cloud.a.id);
});

t.test('SQLite: when every evaluation saw an empty ledger, the store alone keeps the budget', async (t) => {
  const cloud = await testCloud(t, { policyText: RACE_POLICY });
  barrierAtCommit(cloud.store, CALLS);
  await race(t, [cloud.app], cloud.store, cloud.a.keys.agent, cloud.a.id, true);
});

t.test('PostgreSQL, two replicas: concurrent proposes never overspend', async (t) => {
  if (!(await requirePostgres(t))) return;
  const store = await openTestPostgres(t);
  const tenant = await testTenant(store, 'race');
  const replicas = await twoReplicas(t, store, RACE_POLICY);
  await race(t, replicas, store, tenant.keys.agent, tenant.id);
});

t.test(
  'PostgreSQL, two replicas: with every evaluation before any commit, the database keeps the budget',
  async (t) => {
    if (!(await requirePostgres(t))) return;
    const store = await openTestPostgres(t);
    const tenant = await testTenant(store, 'race');
    barrierAtCommit(store, CALLS);
    const replicas = await twoReplicas(t, store, RACE_POLICY);
    await race(t, replicas, store, tenant.keys.agent, tenant.id, true);
  },
);
