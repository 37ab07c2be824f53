/**
 * The approvals queue's reads are index reads on both stores (store/approvals-queue-query.ts): each lane's page,
 * first and after a cursor, through its partial index in its order, and the per-key count of open proposals
 * through its own. SQLite: EXPLAIN QUERY PLAN; PostgreSQL: EXPLAIN with sequential scans priced out, so a plan
 * shows what the indexes can serve (on a table this small the planner would rightly scan).
 */
import t, { type Test } from 'tap';
import { openByKeyQuery, queueQuery } from '../../src/store/approvals-queue-query.js';
import { openKernelStore } from '../../src/store/open-kernel-store.js';
import type { PostgresStore } from '../../src/store/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { openTestPostgres, requirePostgres } from '../helpers/postgres.js';

type Mark = (n: number) => string;

/** Each read, its statement in the dialect of `mark`, and the index that must serve it. */
function reads(mark: Mark): [string, { sql: string; params: unknown[] }, RegExp][] {
  const after = { sortMs: 1_800_000_000_000, id: 'prp_1' };
  return [
    ['held lane, first page', queueQuery(mark, 'ten-a', 'held', undefined, 10), /kernel_proposals_held/],
    ['held lane, after a cursor', queueQuery(mark, 'ten-a', 'held', after, 10), /kernel_proposals_held/],
    [
      'waiting lane, first page',
      queueQuery(mark, 'ten-a', 'waiting', undefined, 10),
      /kernel_proposals_waiting/,
    ],
    [
      'waiting lane, after a cursor',
      queueQuery(mark, 'ten-a', 'waiting', after, 10),
      /kernel_proposals_waiting/,
    ],
    ['open proposals of a key', openByKeyQuery(mark, 'ten-a', 'key-1', 100), /kernel_proposals_open_by_key/],
  ];
}

t.test('SQLite: the queue and the per-key count are index reads', async (t) => {
  const store = new SqliteStore({ path: ':memory:' });
  t.teardown(() => store.close());
  await openKernelStore(store);
  for (const [what, { sql, params }, index] of reads(() => '?')) {
    const plan = (store.database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
      .map((r) => r.detail)
      .join(' | ');
    t.match(plan, index, `${what}: ${plan}`);
    t.notMatch(plan, /SCAN kernel_proposals(?! USING)|USE TEMP B-TREE/, `${what}: no scan, no sort`);
  }
});

async function postgresPlans(t: Test, store: PostgresStore): Promise<void> {
  for (const [what, { sql, params }, index] of reads((n) => `$${n}`)) {
    const plan = await store.transaction(async (c) => {
      await c.query('SET LOCAL enable_seqscan = off');
      return JSON.stringify((await c.query(`EXPLAIN (FORMAT JSON) ${sql}`, params)).rows[0]);
    });
    t.match(plan, index, `${what}: uses ${index}`);
    t.notMatch(plan, /"Seq Scan"|"Sort"/, `${what}: no sequential scan, no sort`);
  }
}

t.test('PostgreSQL: the queue and the per-key count can be served by the indexes', async (t) => {
  if (!(await requirePostgres(t))) return;
  const store = await openTestPostgres(t);
  await openKernelStore(store);
  await postgresPlans(t, store);
});
