/**
 * How PostgresStore's record families reach the database. The store owns the pool: a family reads through
 * the store's query (refused once the store is closed, awaited by close()) and writes inside a transaction
 * the store opened, on that transaction's client.
 */
import { PentagateError } from '@pentagate/protocol';
import type pg from 'pg';
import type { Row } from './row-mappers.js';
import { StoreError } from './store-error.js';

export type PostgresQuery = (sql: string, params?: unknown[]) => Promise<Row[]>;

export type PostgresClient = pg.PoolClient;

/** What a caller sees of a failed statement: a Pentagate error as thrown, anything else as a store error. */
export function storeErrorOf(err: unknown): PentagateError {
  return err instanceof PentagateError ? err : new StoreError(`PostgreSQL: ${(err as Error).message}`);
}
