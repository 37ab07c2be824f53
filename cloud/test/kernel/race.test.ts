/**
 * Exactly-once execution under concurrency ("200 concurrent executes of one proposal, exactly one
 * success"), settled by the database: on SQLite through the single-writer transaction, on PostgreSQL by
 * the proposal row lock — with two app replicas sharing one database, as in ARCHITECTURE.md §7.
 */
import t, { type Test } from 'tap';
import type { CloudApp } from '../../src/app/build-app.js';
import type { Store } from '../../src/store/store.js';
import { twoReplicas } from '../helpers/budget-race.js';
import { bearer, EXAMPLE_POLICY, testTenant } from '../helpers/cloud-app.js';
import { openTestPostgres, requirePostgres } from '../helpers/postgres.js';
import { kernelCloud, ledgerWrite } from './kernel-helpers.js';

const CONCURRENT = 200;

type Tap = Test;

async function race(t: Tap, apps: CloudApp[], store: Store, tenantId: string, key: string): Promise<void> {
  const auth = await apps[0]!.inject({
    method: 'POST',
    url: '/api/v1/kernel/authorize',
    headers: bearer(key),
    payload: ledgerWrite(75, 'racer'),
  });
  const proposalId = auth.json().proposalId as string;
  t.equal(auth.json().status, 'ALLOW');
  const responses = await Promise.all(
    Array.from({ length: CONCURRENT }, (_, i) =>
      apps[i % apps.length]!.inject({
        method: 'POST',
        url: '/api/v1/kernel/execute',
        headers: bearer(key),
        payload: { proposalId },
      }),
    ),
  );
  const statuses = responses.map((r) => r.statusCode);
  t.equal(statuses.filter((s) => s === 200).length, 1, 'exactly one execution succeeds');
  t.equal(statuses.filter((s) => s === 409).length, CONCURRENT - 1, 'every other call is DOUBLE_EXECUTION');
  const entries = await store.auditEntries(0, await store.auditSize());
  const executions = entries.filter(
    (r) => r.entry.type === 'execution' && r.entry.data.proposalId === proposalId,
  );
  t.equal(executions.length, 1, 'one execution entry in the log');
  const totals = await store.ledgerTotals(tenantId, 'racer', 3_600_000, Date.now() + 1000);
  t.same(totals, { spent: 75, reserved: 0 }, 'the reservation was committed once');
}

t.test('SQLite: 200 concurrent executes of one proposal, one success', async (t) => {
  const c = await kernelCloud(t);
  await race(t, [c.app], c.store, c.a.id, c.a.keys.agent);
});

t.test('PostgreSQL, two replicas: 200 concurrent executes of one proposal, one success', async (t) => {
  if (!(await requirePostgres(t))) return;
  const store = await openTestPostgres(t);
  const tenant = await testTenant(store, 'race');
  const replicas = await twoReplicas(t, store, EXAMPLE_POLICY, { kernel: { expirySweepMs: 0 } });
  await race(t, replicas, store, tenant.id, tenant.keys.agent);
});
