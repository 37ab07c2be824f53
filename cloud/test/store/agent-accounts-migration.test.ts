/**
 * The migration that brings agent accounts and agent-bound keys to a database made before them: agents
 * registered under several versions of one agent_name join the account of the name's first registration
 * (so their budget windows are shared from the upgrade on), and existing keys stay unbound. One database
 * per dialect, made with the migrations before that one, then opened by the current store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres-schema.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite-schema.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { POSTGRES_URL, clientOnNewSchema, requirePostgres } from '../helpers/postgres.js';

/** Rows as a database before accounts held them: two versions of `bot` (v2 first by id, v1 first by time). */
const BEFORE = [
  `INSERT INTO tenants (id, name, created_at_ms) VALUES ('ten_1', 'a', 1)`,
  `INSERT INTO agents (id, tenant_id, name, version, domain, lobe_name, created_at_ms, metadata)
     VALUES ('agt_b', 'ten_1', 'bot', '1', 'FINANCE', 'bot@1', 10, '{}'),
            ('agt_a', 'ten_1', 'bot', '2', 'FINANCE', 'bot@2', 20, '{}'),
            ('agt_c', 'ten_1', 'other', '1', 'FINANCE', 'other@1', 15, '{}')`,
  `INSERT INTO api_keys (id, tenant_id, scope, key_hash, created_at_ms, revoked_at_ms)
     VALUES ('key_1', 'ten_1', 'agent', '${'1'.repeat(64)}', 1, NULL)`,
];

/** The migrations a database had before agent accounts: those numbered below the one that adds them. */
function before<M extends { version: number; sql: string }>(migrations: readonly M[]): M[] {
  const accounts = migrations.find((m) => m.sql.includes('ADD COLUMN account_id'));
  if (!accounts) throw new Error('no migration adds agents.account_id');
  return migrations.filter((m) => m.version < accounts.version);
}

async function checkMigrated(t: Test, store: Store): Promise<void> {
  t.equal((await store.findAgentByLobe('ten_1', 'bot@1'))?.accountId, 'agt_b');
  t.equal(
    (await store.findAgentByLobe('ten_1', 'bot@2'))?.accountId,
    'agt_b',
    'the first registration by time',
  );
  t.equal((await store.findAgentByLobe('ten_1', 'other@1'))?.accountId, 'agt_c');
  t.equal((await store.findApiKeyByHash('1'.repeat(64)))?.agentName, null, 'an existing key stays unbound');
}

t.test('SQLite: a database from before agent accounts migrates', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pentagate-migration-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'cloud.db');
  const db = new Database(path);
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at_ms INTEGER NOT NULL)');
  for (const m of before(SQLITE_MIGRATIONS)) {
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_migrations (version, applied_at_ms) VALUES (?, 1)').run(m.version);
  }
  for (const sql of BEFORE) db.exec(sql);
  db.close();
  const store = new SqliteStore({ path });
  t.teardown(() => store.close());
  await checkMigrated(t, store);
});

t.test('PostgreSQL: a schema from before agent accounts migrates', async (t) => {
  if (!(await requirePostgres(t))) return;
  const { client, schema } = await clientOnNewSchema(t);
  await client.query(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at_ms BIGINT NOT NULL)',
  );
  for (const m of before(POSTGRES_MIGRATIONS)) {
    await client.query(m.sql);
    await client.query('INSERT INTO schema_migrations (version, applied_at_ms) VALUES ($1, 1)', [m.version]);
  }
  for (const sql of BEFORE) await client.query(sql);
  const store = await PostgresStore.open({ url: POSTGRES_URL, schema });
  t.teardown(() => store.close());
  await checkMigrated(t, store);
});
