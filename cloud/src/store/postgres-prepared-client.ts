/**
 * The pool's client: every query with parameters runs as a named prepared statement, so PostgreSQL parses
 * and plans each distinct statement once per connection instead of on every execution. The decision path's
 * statements (the window-and-history read, the rows of a decision) are CTEs over several tables whose
 * planning cost as much as running them; under the budget and audit_head locks that was time no decision
 * of any replica could commit. After five executions PostgreSQL keeps a generic plan only when it costs no
 * more than the custom ones (docs, PREPARE: "plan_cache_mode"), so a lookup keeps its index.
 * A query without parameters may hold several statements (migrations, `RELEASE …; SAVEPOINT …`) and a
 * prepared statement holds one, so those run as before.
 *
 * A prepared `SELECT *` fails once its table gains a column ("cached plan must not change result type",
 * SQLSTATE 0A000): another replica of a newer version migrated the database under this one. The connection
 * then stops preparing and runs the query again unprepared — which answers, outside a transaction; inside
 * one, the failed statement has aborted the transaction, which fails once, as any statement error does.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';

const names = new Map<string, string>();

/** SQLSTATE feature_not_supported: what a prepared statement raises when its result columns changed. */
const CACHED_PLAN_CHANGED = '0A000';

/** One name per statement text, the same in every connection (a connection prepares it on first use). */
export function preparedNameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `pg_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

export class PreparingClient extends pg.Client {
  #preparing = true;

  // biome-ignore lint/suspicious/noExplicitAny: pg.Client.query's overloads, passed through unchanged
  override query(config: any, values?: any, callback?: any): any {
    const prepare =
      this.#preparing && typeof config === 'string' && Array.isArray(values) && values.length > 0;
    if (!prepare) return super.query(config, values, callback);
    const answered = this.#prepared(config, values);
    // the pool's own query() passes a callback
    if (typeof callback !== 'function') return answered;
    answered.then(
      (result) => callback(null, result),
      (err: unknown) => callback(err),
    );
    return undefined;
  }

  async #prepared(text: string, values: unknown[]): Promise<pg.QueryResult> {
    try {
      return await super.query({ name: preparedNameOf(text), text, values });
    } catch (err) {
      if ((err as { code?: string }).code !== CACHED_PLAN_CHANGED) throw err;
      this.#preparing = false;
      return super.query(text, values);
    }
  }
}
