/**
 * PostgreSQL for tests: 127.0.0.1:5432, database `test`, trust auth (team rules §6). Each call makes a
 * unique schema that is dropped afterwards. Unreachable → fail when CI=true, otherwise skip with a message.
 */
import pg from 'pg';
import type { Test } from 'tap';
import { PostgresStore } from '../../src/store/postgres-store.js';

export const POSTGRES_URL =
  process.env.PENTAGATE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Undefined when PostgreSQL answers; otherwise why not. */
export async function postgresUnavailable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

let counter = 0;

export function uniqueSchema(): string {
  return `pentagate_test_${process.pid}_${Date.now().toString(36)}_${counter++}`;
}

/**
 * Opens a store in a fresh schema; the schema is dropped when `t` ends. `url` (default POSTGRES_URL) may add
 * connection parameters, e.g. an application_name to find the store's sessions in pg_stat_activity.
 */
export async function openTestPostgres(t: Test, url = POSTGRES_URL): Promise<PostgresStore> {
  const schema = uniqueSchema();
  const store = await PostgresStore.open({ url, schema });
  t.teardown(async () => {
    await store.close();
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });
  return store;
}

/**
 * A client on a fresh schema (its search_path), for a test that builds a database by hand — as an older
 * release left it, say — before a store opens it (`PostgresStore.open({ url: POSTGRES_URL, schema })`).
 * The schema is dropped and the client closed when `t` ends.
 */
export async function clientOnNewSchema(t: Test): Promise<{ client: pg.Client; schema: string }> {
  const schema = uniqueSchema();
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  t.teardown(async () => {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  });
  await client.query(`CREATE SCHEMA ${schema}; SET search_path = ${schema}`);
  return { client, schema };
}

/** Skips (or, with CI=true, fails) the test when PostgreSQL is unreachable; true when it may run. */
export async function requirePostgres(t: Test): Promise<boolean> {
  const why = await postgresUnavailable();
  if (why === undefined) return true;
  if (process.env.CI === 'true') {
    t.fail(`PostgreSQL at ${POSTGRES_URL} is required when CI=true: ${why}`);
  } else {
    t.comment(`skipping: PostgreSQL at ${POSTGRES_URL} unreachable (${why})`);
    t.pass('skipped without PostgreSQL');
  }
  return false;
}
