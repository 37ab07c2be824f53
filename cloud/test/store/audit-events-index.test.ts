/**
 * The console's audit browser reads a tenant's entries through expression indexes, not a scan of the whole
 * log: the plans of the very queries the stores run (audit-events-query.ts) use `audit_log_by_tenant` or
 * `audit_log_by_tenant_type`, on SQLite (EXPLAIN QUERY PLAN) and PostgreSQL (EXPLAIN, with sequential scans
 * priced out so the plan shows whether the index can serve the query at all). And the filters still return
 * exactly the tenant's entries, in order.
 */
import t, { type Test } from 'tap';
import { AuditLog } from '../../src/audit/audit-log.js';
import { postgresAuditEventsQuery, sqliteAuditEventsQuery } from '../../src/store/audit-events-query.js';
import type { AuditEventQuery } from '../../src/store/kernel-store.js';
import { openKernelStore } from '../../src/store/open-kernel-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { openTestPostgres, requirePostgres } from '../helpers/postgres.js';

type Tap = Test;

const QUERIES: [string, AuditEventQuery, RegExp][] = [
  ['a tenant', { tenantId: 'ten-a', limit: 100 }, /audit_log_by_tenant/],
  ['a tenant and type', { tenantId: 'ten-a', type: 'robot', limit: 100 }, /audit_log_by_tenant_type/],
  ['a tenant and agent', { tenantId: 'ten-a', agentId: 'agent-1', limit: 100 }, /audit_log_by_tenant/],
  [
    'a tenant, type and time, after a cursor',
    { tenantId: 'ten-a', type: 'decision', fromIso: '2026-01-01T00:00:00Z', afterIndex: 5, limit: 10 },
    /audit_log_by_tenant/,
  ],
  [
    'a tenant, newest first before an index (GET /api/v1/audit/entries)',
    { tenantId: 'ten-a', beforeIndex: 40, newestFirst: true, limit: 21 },
    /audit_log_by_tenant/,
  ],
];

async function fill(store: Store): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await store.appendAudit(
      AuditLog.builder(
        {
          type: i % 3 === 0 ? 'robot' : 'decision',
          tenantId: i % 2 === 0 ? 'ten-a' : 'ten-b',
          actor: `agent-${i % 4}`,
          data: { n: i },
        },
        Date.parse('2026-06-01T00:00:00Z') + i,
      ),
    );
  }
}

async function results(t: Tap, store: Store): Promise<void> {
  const kernel = await openKernelStore(store);
  const all = await kernel.auditEvents({ tenantId: 'ten-a', limit: 100 });
  t.equal(all.length, 30, "the tenant's entries only");
  t.ok(all.every((r) => r.entry.tenantId === 'ten-a'));
  t.same(
    all.map((r) => r.index),
    [...all.map((r) => r.index)].sort((a, b) => a - b),
    'in index order',
  );
  const robots = await kernel.auditEvents({ tenantId: 'ten-a', type: 'robot', afterIndex: 10, limit: 100 });
  t.same(
    robots.map((r) => r.index),
    Array.from({ length: 60 }, (_, i) => i).filter((i) => i > 10 && i % 2 === 0 && i % 3 === 0),
    'type and cursor filter as before',
  );
  const newest = await kernel.auditEvents({
    tenantId: 'ten-a',
    beforeIndex: 40,
    newestFirst: true,
    limit: 5,
  });
  t.same(
    newest.map((r) => r.index),
    [38, 36, 34, 32, 30],
    'newest first, before the index',
  );
}

t.test('SQLite: audit event pages are index range reads', async (t) => {
  const store = new SqliteStore({ path: ':memory:' });
  t.teardown(() => store.close());
  await openKernelStore(store);
  await fill(store);
  for (const [what, q, index] of QUERIES) {
    const { sql, params } = sqliteAuditEventsQuery(q);
    const plan = (store.database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
      .map((r) => r.detail)
      .join(' | ');
    t.match(plan, index, `${what}: ${plan}`);
    t.notMatch(plan, /SCAN audit_log(?! USING)/, `${what}: no full scan`);
  }
  await results(t, store);
});

t.test('PostgreSQL: audit event pages can be served by the indexes', async (t) => {
  if (!(await requirePostgres(t))) return;
  const store = await openTestPostgres(t);
  await openKernelStore(store);
  await fill(store);
  for (const [what, q, index] of QUERIES) {
    const { sql, params } = postgresAuditEventsQuery(q);
    const plan = await store.transaction(async (c) => {
      await c.query('SET LOCAL enable_seqscan = off');
      const res = await c.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
      return JSON.stringify(res.rows[0]);
    });
    t.match(plan, index, `${what}: uses ${index}`);
    t.notMatch(plan, /"Seq Scan"/, `${what}: no sequential scan`);
  }
  await results(t, store);
});
