/**
 * The console's audit browser reads a tenant's entries through expression indexes, not a scan of the whole
 * log: the plans of the very queries the stores run (audit-events-query.ts) use `audit_log_by_tenant` or
 * `audit_log_by_tenant_type`, and an agent or proposal filter reads the indexes of the two fields it matches
 * (one arm each), on SQLite (EXPLAIN QUERY PLAN) and PostgreSQL (EXPLAIN, with sequential scans priced out so
 * the plan shows whether the index can serve the query at all). And every combination of filters returns
 * exactly the entries a filter over the whole log in memory returns, in order.
 */
import t, { type Test } from 'tap';
import { AuditLog } from '../../src/audit/audit-log.js';
import { encodeAuditEntry } from '../../src/store/audit/audit-leaf.js';
import {
  AUDIT_FILTER_COLUMNS,
  postgresAuditEventsQuery,
  sqliteAuditEventsQuery,
} from '../../src/store/audit-events-query.js';
import { POSTGRES_KERNEL_MIGRATIONS } from '../../src/store/kernel-schema.js';
import type { AuditEventQuery } from '../../src/store/kernel-store.js';
import { openKernelStore } from '../../src/store/open-kernel-store.js';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres-schema.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { AuditEntryBuilder, Store } from '../../src/store/store.js';
import { POSTGRES_URL, clientOnNewSchema, openTestPostgres, requirePostgres } from '../helpers/postgres.js';

type Tap = Test;

/** A plan naming both indexes, in either order (an agent or proposal filter reads one per arm). */
function bothIndexes(a: string, b: string): RegExp {
  return new RegExp(`^(?=.*\\b${a}\\b)(?=.*\\b${b}\\b)`, 's');
}

const QUERIES: [string, AuditEventQuery, RegExp][] = [
  ['a tenant', { tenantId: 'ten-a', limit: 100 }, /audit_log_by_tenant/],
  ['a tenant and type', { tenantId: 'ten-a', type: 'robot', limit: 100 }, /audit_log_by_tenant_type/],
  [
    'a tenant and type between two indexes, newest first (the console filtering by type)',
    { tenantId: 'ten-a', type: 'robot', afterIndex: 2, beforeIndex: 40, newestFirst: true, limit: 21 },
    /audit_log_by_tenant_type/,
  ],
  [
    'a tenant and agent',
    { tenantId: 'ten-a', agentId: 'agent-1', limit: 100 },
    bothIndexes('audit_log_by_tenant_actor', 'audit_log_by_tenant_data_agentid'),
  ],
  [
    'a tenant and proposal',
    { tenantId: 'ten-a', proposalId: 'prop-3', limit: 100 },
    bothIndexes('audit_log_by_tenant_data_proposalid', 'audit_log_by_tenant_data_decisionid'),
  ],
  [
    'a tenant, agent and proposal, newest first',
    { tenantId: 'ten-a', agentId: 'agent-1', proposalId: 'prop-3', newestFirst: true, limit: 10 },
    bothIndexes('audit_log_by_tenant_data_proposalid', 'audit_log_by_tenant_data_decisionid'),
  ],
  [
    'a tenant, type and agent after a cursor',
    { tenantId: 'ten-a', type: 'decision', agentId: 'agent-2', afterIndex: 7, limit: 5 },
    bothIndexes('audit_log_by_tenant_actor', 'audit_log_by_tenant_data_agentid'),
  ],
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

interface Filled {
  index: number;
  tenantId: string;
  type: string;
  actor: string;
  data: Record<string, unknown>;
  atMs: number;
}

/** Entry i's data: an agent other than the actor on some, a proposal or a decision id on others, both on a few. */
function dataOf(i: number): Record<string, unknown> {
  const data: Record<string, unknown> = { n: i };
  if (i % 5 === 0) data.agentId = `agent-${(i + 1) % 4}`;
  if (i % 3 === 1) data.proposalId = `prop-${i % 7}`;
  if (i % 4 === 2) data.decisionId = `prop-${i % 5}`;
  return data;
}

/** Appends one entry, as `Store.appendAudit` does; answers its index. */
type Append = (build: AuditEntryBuilder) => Promise<{ index: number }>;

const appendTo =
  (store: Store): Append =>
  (build) =>
    store.appendAudit(build);

async function fill(append: Append): Promise<Filled[]> {
  const filled: Filled[] = [];
  for (let i = 0; i < 60; i++) {
    const entry = {
      type: i % 3 === 0 ? 'robot' : 'decision',
      tenantId: i % 2 === 0 ? 'ten-a' : 'ten-b',
      actor: `agent-${i % 4}`,
      data: dataOf(i),
    };
    const atMs = Date.parse('2026-06-01T00:00:00Z') + i * 1000;
    const record = await append(AuditLog.builder(entry, atMs));
    filled.push({ index: record.index, ...entry, atMs });
  }
  return filled;
}

/** The filter as the store documents it (AuditEventQuery), over the whole log in memory. */
function inMemory(all: readonly Filled[], q: AuditEventQuery): number[] {
  const rows = all.filter(
    (e) =>
      e.tenantId === q.tenantId &&
      e.index > (q.afterIndex ?? -1) &&
      (q.beforeIndex === undefined || e.index < q.beforeIndex) &&
      (q.type === undefined || e.type === q.type) &&
      (q.agentId === undefined || e.actor === q.agentId || e.data.agentId === q.agentId) &&
      (q.proposalId === undefined ||
        e.data.proposalId === q.proposalId ||
        e.data.decisionId === q.proposalId) &&
      (q.fromIso === undefined || e.atMs >= Date.parse(q.fromIso)) &&
      (q.toIso === undefined || e.atMs < Date.parse(q.toIso)),
  );
  const indexes = rows.map((e) => e.index);
  if (q.newestFirst) indexes.reverse();
  return indexes.slice(0, q.limit);
}

/** Every combination of the filters, against the in-memory filter; small limits cut inside both arms. */
async function sameAsInMemory(t: Tap, store: Store, all: readonly Filled[]): Promise<void> {
  const kernel = await openKernelStore(store);
  let compared = 0;
  let nonEmpty = 0;
  for (const agentId of [undefined, 'agent-1', 'agent-2']) {
    for (const proposalId of [undefined, 'prop-1', 'prop-4']) {
      for (const type of [undefined, 'decision']) {
        for (const [afterIndex, beforeIndex] of [
          [undefined, undefined],
          [9, 50],
        ] as const) {
          for (const newestFirst of [false, true]) {
            for (const limit of [2, 100]) {
              const q: AuditEventQuery = { tenantId: 'ten-a', limit, newestFirst };
              if (agentId !== undefined) q.agentId = agentId;
              if (proposalId !== undefined) q.proposalId = proposalId;
              if (type !== undefined) q.type = type;
              if (afterIndex !== undefined) q.afterIndex = afterIndex;
              if (beforeIndex !== undefined) q.beforeIndex = beforeIndex;
              const expected = inMemory(all, q);
              const got = (await kernel.auditEvents(q)).map((r) => r.index);
              if (JSON.stringify(got) !== JSON.stringify(expected)) t.same(got, expected, JSON.stringify(q));
              compared++;
              if (expected.length > 0) nonEmpty++;
            }
          }
        }
      }
    }
  }
  const timed = {
    tenantId: 'ten-a',
    agentId: 'agent-1',
    fromIso: '2026-06-01T00:00:10.000Z',
    toIso: '2026-06-01T00:00:40.000Z',
    limit: 100,
  };
  t.same(
    (await kernel.auditEvents(timed)).map((r) => r.index),
    inMemory(all, timed),
    'agent and time',
  );
  t.ok(
    nonEmpty > compared / 3,
    `${compared} combinations equal the in-memory filter (${nonEmpty} not empty)`,
  );
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
  const all = await fill(appendTo(store));
  for (const [what, q, index] of QUERIES) {
    const { sql, params } = sqliteAuditEventsQuery(q);
    const plan = (store.database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
      .map((r) => r.detail)
      .join(' | ');
    t.match(plan, index, `${what}: ${plan}`);
    t.notMatch(plan, /SCAN audit_log(?! USING)/, `${what}: no full scan`);
  }
  await results(t, store);
  await sameAsInMemory(t, store, all);
});

/** EXPLAIN of every query in QUERIES names its index and no sequential scan (sequential scans priced out). */
async function postgresPlans(t: Tap, store: PostgresStore): Promise<void> {
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
}

t.test('PostgreSQL: audit event pages can be served by the indexes', async (t) => {
  if (!(await requirePostgres(t))) return;
  const store = await openTestPostgres(t);
  await openKernelStore(store);
  const all = await fill(appendTo(store));
  await postgresPlans(t, store);
  await results(t, store);
  await sameAsInMemory(t, store, all);
});

t.test('PostgreSQL: the filter columns are what the entry says, whatever the INSERT gave', async (t) => {
  if (!(await requirePostgres(t))) return;
  const store = await openTestPostgres(t);
  await openKernelStore(store);
  await fill(appendTo(store));
  const columns = AUDIT_FILTER_COLUMNS.map((c) => c.column).join(', ');
  const rows = await store.queryRows(`SELECT entry, ${columns} FROM audit_log ORDER BY idx`);
  t.equal(rows.length, 60);
  const fieldOf = (entry: Record<string, unknown>, path: readonly string[]): unknown =>
    path.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], entry) ?? null;
  const mismatched = rows.filter((row) => {
    const entry = JSON.parse(String(row.entry)) as Record<string, unknown>;
    return AUDIT_FILTER_COLUMNS.some((c) => row[c.column] !== fieldOf(entry, c.path));
  });
  t.same(mismatched, [], 'every column holds its field of the entry (null where the entry has none)');
  // A writer naming another tenant in the column files nothing under it: the trigger sets every column.
  await store.transaction(async (c) => {
    const idx = Number((await c.query('SELECT size FROM audit_head FOR UPDATE')).rows[0].size);
    const entry = encodeAuditEntry(
      AuditLog.builder({ type: 'x', tenantId: 'ten-a', actor: 'a', data: {} }, 0)(idx),
      idx,
    );
    await c.query(
      `INSERT INTO audit_log (idx, entry, leaf_hash, tenant_id, actor) VALUES ($1, $2, $3, 'ten-b', 'forged')`,
      [idx, entry.text, Buffer.from(entry.leafHash)],
    );
    await c.query('UPDATE audit_head SET size = size + 1');
  });
  const [last] = await store.queryRows('SELECT tenant_id, actor FROM audit_log ORDER BY idx DESC LIMIT 1');
  t.same({ ...last }, { tenant_id: 'ten-a', actor: 'a' }, "the entry's own tenant and actor");
});

t.test(
  'PostgreSQL: a log written before the filter columns is found through them after the upgrade',
  async (t) => {
    if (!(await requirePostgres(t))) return;
    const { client, schema } = await clientOnNewSchema(t);
    // The schema as the release before the columns left it: platform migrations to 7, kernel ones to 4.
    const columns = POSTGRES_MIGRATIONS.find((m) => m.sql.includes('audit_log_filter_fields'));
    const indexes = POSTGRES_KERNEL_MIGRATIONS.find((m) => m.sql.includes('ON audit_log (tenant_id, idx)'));
    if (columns === undefined || indexes === undefined)
      throw new Error('no migration adds the audit filter columns, or none indexes them');
    for (const [table, migrations, below] of [
      ['schema_migrations', POSTGRES_MIGRATIONS, columns.version],
      ['kernel_schema_migrations', POSTGRES_KERNEL_MIGRATIONS, indexes.version],
    ] as const) {
      await client.query(
        `CREATE TABLE ${table} (version INTEGER PRIMARY KEY, applied_at_ms BIGINT NOT NULL)`,
      );
      for (const m of migrations.filter((m) => m.version < below)) {
        await client.query(m.sql);
        await client.query(`INSERT INTO ${table} (version, applied_at_ms) VALUES ($1, 1)`, [m.version]);
      }
    }
    // Entries appended by that release: the same INSERT, which knew no columns.
    let size = 0;
    const all = await fill(async (build) => {
      const index = size++;
      const entry = encodeAuditEntry(build(index), index);
      await client.query('INSERT INTO audit_log (idx, entry, leaf_hash) VALUES ($1, $2, $3)', [
        index,
        entry.text,
        Buffer.from(entry.leafHash),
      ]);
      await client.query('UPDATE audit_head SET size = $1', [size]);
      return { index };
    });
    const store = await PostgresStore.open({ url: POSTGRES_URL, schema });
    t.teardown(() => store.close());
    await openKernelStore(store);
    const [built] = await store.queryRows(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE indexdef LIKE '%jsonb%')::int AS parsing
       FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE 'audit_log_by_tenant%'`,
      [schema],
    );
    t.same({ ...built }, { n: 6, parsing: 0 }, 'the six indexes, none parsing the entry');
    await postgresPlans(t, store);
    await results(t, store);
    await sameAsInMemory(t, store, all);
    await t.rejects(
      store.queryRows(`UPDATE audit_log SET tenant_id = 'ten-b' WHERE idx = 0`),
      /append-only/,
      'the log is append-only again after the migration',
    );
  },
);
