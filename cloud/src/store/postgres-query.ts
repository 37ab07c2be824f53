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

/** A transaction client as a PostgresQuery, for a family's read that must see the transaction's rows. */
export function clientQuery(c: PostgresClient): PostgresQuery {
  return async (sql, params) => (await c.query(sql, params)).rows as Row[];
}

/** One SQL statement and its parameters ($1, $2, …). */
export interface SqlStatement {
  sql: string;
  params: unknown[];
}

/**
 * Several INSERTs as ONE statement, so one round trip: all but the last become data-modifying CTEs (WITH
 * s0 AS (INSERT …) INSERT …), each with its parameters renumbered after the previous ones'. PostgreSQL runs
 * every sub-statement of a WITH to completion, with the same snapshot, and fails the whole statement if one
 * fails (docs: "Data-Modifying Statements in WITH"); the INSERTs given must not read each other's rows.
 */
export function oneStatement(inserts: readonly SqlStatement[]): SqlStatement {
  const params: unknown[] = [];
  const parts = inserts.map(({ sql, params: own }) => {
    const offset = params.length;
    params.push(...own);
    return paramsAfter(sql, offset);
  });
  const last = parts.pop();
  if (last === undefined) throw new Error('oneStatement: expected at least one INSERT');
  if (parts.length === 0) return { sql: last, params };
  return { sql: `WITH ${parts.map((sql, i) => `s${i} AS (${sql})`).join(', ')} ${last}`, params };
}

/** `sql` with its parameters renumbered to follow `offset` others ($1 becomes $<offset + 1>, and so on). */
export function paramsAfter(sql: string, offset: number): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
}

/** What a caller sees of a failed statement: a Pentagate error as thrown, anything else as a store error. */
export function storeErrorOf(err: unknown): PentagateError {
  return err instanceof PentagateError ? err : new StoreError(`PostgreSQL: ${(err as Error).message}`);
}
