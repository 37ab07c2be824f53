/**
 * The migration that drops the indexes no read uses (decisions_tenant, call_history_agent; SQLite version 5,
 * PostgreSQL version 6): a database written before it loses both indexes when it is opened, and still answers
 * every read of what it held — the decision with its envelope, the calls, the budget totals, the audit log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import t from 'tap';
import type { Test } from 'tap';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { POSTGRES_URL, openTestPostgres, requirePostgres } from '../helpers/postgres.js';
import { agent, decisionWrite, tenant } from './conformance.js';

const T0 = 1_750_000_000_000;
const DROPPED = ['call_history_agent', 'decisions_tenant'];
const RECREATE_DROPPED = `
CREATE INDEX call_history_agent ON call_history(tenant_id, agent_id, at_ms);
CREATE INDEX decisions_tenant ON decisions(tenant_id, created_at_ms);`;

/** What a store answers about the data `written` put in it, for a before/after comparison. */
async function reads(store: Store, w: Written) {
  const decision = await store.getDecision(w.tenantId, w.decisionId);
  return {
    decision,
    recent: await store.recentCalls(w.tenantId, w.agentId, 0, 10),
    relevant: await store.relevantCalls(w.tenantId, w.agentId, {
      fingerprint: 'f'.repeat(64),
      nearFingerprint: 'e'.repeat(64),
      toolName: 'payments.transfer',
      repeatSinceMs: 0,
      deniedSinceMs: 0,
      limit: 10,
    }),
    totals: await store.ledgerTotals(w.tenantId, w.agentId, 60_000, T0 + 10),
    audit: (await store.auditEntries(0, await store.auditSize())).map((r) => r.entry),
  };
}

interface Written {
  tenantId: string;
  agentId: string;
  decisionId: string;
}

async function write(store: Store): Promise<Written> {
  const tenantId = await tenant(store);
  const agentId = await agent(store, tenantId);
  const first = await store.commitDecision(decisionWrite(tenantId, agentId, { amount: 5, nowMs: T0 }));
  await store.commitDecision(decisionWrite(tenantId, agentId, { amount: 500, nowMs: T0 + 1 }));
  return { tenantId, agentId, decisionId: first.decision.id };
}

function checkMigrated(t: Test, indexes: string[], versions: number[], version: number): void {
  for (const name of DROPPED) t.notOk(indexes.includes(name), `${name} is dropped`);
  t.ok(indexes.includes('call_history_fingerprint'), 'the metabolic look-ups keep their indexes');
  t.ok(versions.includes(version), `migration ${version} is recorded`);
}

t.test(
  'SQLite: a database from before migration 5 loses the unread indexes and answers every read',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'pentagate-unread-indexes-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'cloud.db');
    const first = new SqliteStore({ path });
    const written = await write(first);
    const before = await reads(first, written);
    await first.close();

    // the same file as a version-4 database: the indexes back, migration 5 not applied
    const raw = new Database(path);
    raw.exec(RECREATE_DROPPED);
    raw.prepare('DELETE FROM schema_migrations WHERE version = 5').run();
    raw.close();

    const migrated = new SqliteStore({ path });
    t.teardown(() => migrated.close());
    const db = migrated.database;
    const indexes = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]
    ).map((r) => r.name);
    const versions = (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
      (r) => r.version,
    );
    checkMigrated(t, indexes, versions, 5);
    const after = await reads(migrated, written);
    t.same(after, before, 'every read answers as before the migration');
    t.ok(after.decision?.envelope, 'the decision still carries its envelope from the audit entry');
    t.equal(after.recent.length, 2, 'both calls are still found');
  },
);

t.test(
  'PostgreSQL: a schema from before migration 6 loses the unread indexes and answers every read',
  async (t) => {
    if (!(await requirePostgres(t))) return;
    const first = await openTestPostgres(t);
    const schema = first.schema!;
    const written = await write(first);
    const before = await reads(first, written);

    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    t.teardown(() => admin.end());
    await admin.query(`SET search_path TO ${schema}`);
    await admin.query(RECREATE_DROPPED);
    await admin.query('DELETE FROM schema_migrations WHERE version = 6');

    const migrated = await PostgresStore.open({ url: POSTGRES_URL, schema });
    t.teardown(() => migrated.close());
    const indexes = (
      await admin.query('SELECT indexname FROM pg_indexes WHERE schemaname = $1', [schema])
    ).rows.map((r) => String(r.indexname));
    const versions = (await admin.query('SELECT version FROM schema_migrations')).rows.map((r) =>
      Number(r.version),
    );
    checkMigrated(t, indexes, versions, 6);
    t.same(await reads(migrated, written), before, 'every read answers as before the migration');
  },
);
