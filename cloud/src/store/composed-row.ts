/**
 * A row of a store composed on the platform store (the kernel's proposal row) that a decision writes in
 * its own transaction: the row and the decision become durable in one write, or neither does. The
 * platform store does not know the composed tables, so the row names its table and columns and each
 * dialect renders the INSERT (no ON CONFLICT: a collision must fail the decision, not be skipped).
 *
 * A row that collides with a unique key — an idempotency key an earlier decision took — fails its
 * decision as a whole: the decision's savepoint rolls back, so it reserves nothing and takes no audit
 * index (the next decision gets it), and commitDecision rejects with RowConflict, which the caller tells
 * apart from a store failure. The other decisions of the batch are not touched.
 */
import type Database from 'better-sqlite3';
import type { PostgresClient, SqlStatement } from './postgres-query.js';
import { num, type Row } from './row-mappers.js';
import { preparedOnce } from './sqlite-prepared.js';
import { StoreError } from './store-error.js';

export interface ComposedRow {
  /** A table the composed store migrated; a constant of its code, never input. */
  table: string;
  /** Column names, in the order of `values`. */
  columns: readonly string[];
  values: readonly unknown[];
}

/** A composed row of a decision collided with a unique key; nothing of that decision was written. */
export class RowConflict extends StoreError {
  readonly table: string;

  constructor(table: string, cause: string) {
    super(`${table}: the decision's row collides with an existing one (${cause})`, { table });
    this.table = table;
  }
}

/** Inside a SQLite write (its savepoint): inserts the row; a unique or primary key collision is RowConflict. */
export function insertSqliteRow(db: Database.Database, row: ComposedRow): void {
  try {
    preparedOnce(
      db,
      insertSql(row, () => '?'),
    ).run(...row.values);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
      throw new RowConflict(row.table, (err as Error).message);
    throw err;
  }
}

/** The row's INSERT for PostgreSQL, to run in the decision's one statement (oneStatement). */
export function postgresRowInsert(row: ComposedRow): SqlStatement {
  return { sql: insertSql(row, (i) => `$${i + 1}`), params: [...row.values] };
}

/** The row's INSERT in a dialect's placeholders (`mark` of the 0-based column position). */
function insertSql(row: ComposedRow, mark: (position: number) => string): string {
  return `INSERT INTO ${row.table} (${row.columns.join(', ')}) VALUES (${row.columns.map((_, i) => mark(i)).join(', ')})`;
}

/**
 * The RowConflict a failed PostgreSQL statement stands for, if it was a unique violation (23505) in one of
 * `rows`' tables; undefined for anything else. The savepoint is rolled back by the batch either way.
 */
export function postgresRowConflict(err: unknown, rows: readonly ComposedRow[]): RowConflict | undefined {
  const e = err as { code?: unknown; table?: unknown; message?: unknown };
  if (e.code !== '23505' || !rows.some((r) => r.table === e.table)) return undefined;
  return new RowConflict(String(e.table), String(e.message));
}

/**
 * A count over a composed store's tables that a decision reads inside its own transaction, after the locks
 * (DecisionWrite.count): a limit the composed store keeps (the kernel's cap of open proposals per API key)
 * is then checked against every decision committed before this one, also those decided concurrently with
 * it, and the decision that would pass the limit can refuse itself before anything is written. `sql` is
 * rendered in the dialect's placeholders (`mark(n)`, 1-based) and selects one row with a column `n`.
 */
export type ComposedCount = (mark: (n: number) => string) => { sql: string; params: unknown[] };

/** Inside a SQLite write: the count, on the writer's connection (it sees this batch's earlier writes). */
export function sqliteCount(db: Database.Database, count: ComposedCount): number {
  const { sql, params } = count(() => '?');
  return num((preparedOnce(db, sql).get(...params) as Row).n);
}

/** Inside a PostgreSQL batch: the count, on the batch's client (it sees the batch's earlier writes). */
export async function postgresCount(c: PostgresClient, count: ComposedCount): Promise<number> {
  const { sql, params } = count((n) => `$${n}`);
  return num(((await c.query(sql, params)).rows[0] as Row).n);
}
