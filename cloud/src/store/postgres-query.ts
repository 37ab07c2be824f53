/**
 * How PostgresStore's record families reach the database. The store owns the pool: a family reads through
 * the store's query (refused once the store is closed, awaited by close()) and writes inside a transaction
 * the store opened, on that transaction's client.
 */
import type pg from 'pg';
import type { Row } from './row-mappers.js';

export type PostgresQuery = (sql: string, params?: unknown[]) => Promise<Row[]>;

export type PostgresClient = pg.PoolClient;
