/**
 * Queries with parameters run as prepared statements (postgres-prepared-client.ts): planned once per
 * connection. When a newer replica's migration adds a column under a prepared `SELECT *`, PostgreSQL refuses
 * the statement ("cached plan must not change result type"); the connection stops preparing and the query
 * is answered unprepared, instead of failing on that connection for as long as it lives.
 */
import pg from 'pg';
import t from 'tap';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { createTenant, issueApiKey } from '../../src/tenants/tenant-admin.js';
import { hashApiKey } from '../../src/tenants/api-key.js';
import { POSTGRES_URL, requirePostgres, uniqueSchema } from '../helpers/postgres.js';

t.test('prepared statements, and a column added under one by another replica', async (t) => {
  if (!(await requirePostgres(t))) return;
  const schema = uniqueSchema();
  // one connection, so every query below runs on the connection that prepared the statement
  const store = await PostgresStore.open({ url: POSTGRES_URL, schema, maxConnections: 1 });
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  t.teardown(async () => {
    await store.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });
  const tenant = await createTenant(store, 'prepared');
  const { key, record } = await issueApiKey(store, tenant.id, 'agent', Date.now());
  t.equal((await store.findApiKeyByHash(hashApiKey(key)))?.id, record.id);
  const prepared = await store.queryRows('SELECT statement FROM pg_prepared_statements');
  t.ok(
    prepared.some((r) => /FROM api_keys/.test(String(r.statement))),
    'the key lookup is a prepared statement of the connection',
  );

  await admin.query(`ALTER TABLE ${schema}.api_keys ADD COLUMN added_by_a_newer_replica TEXT`);
  t.equal(
    (await store.findApiKeyByHash(hashApiKey(key)))?.id,
    record.id,
    'the lookup still answers once its prepared statement is out of date',
  );
  t.equal((await store.findApiKeyByHash(hashApiKey(key)))?.id, record.id, 'and again');
});
