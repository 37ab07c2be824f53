/**
 * The pool's client: every query with parameters runs as a named prepared statement, so PostgreSQL parses
 * and plans each distinct statement once per connection instead of on every execution. The decision path's
 * statements (the window-and-history read, the rows of a decision) are CTEs over several tables whose
 * planning cost as much as running them; under the budget and audit_head locks that was time no decision
 * of any replica could commit. After five executions PostgreSQL keeps a generic plan only when it costs no
 * more than the custom ones (docs, PREPARE: "plan_cache_mode"), so a lookup keeps its index.
 * A query without parameters may hold several statements (migrations, `RELEASE …; SAVEPOINT …`) and a
 * prepared statement holds one, so those run as before.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';

const names = new Map<string, string>();

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
  // biome-ignore lint/suspicious/noExplicitAny: pg.Client.query's overloads, passed through unchanged
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
      return super.query({ name: preparedNameOf(config), text: config, values }, callback);
    }
    return super.query(config, values, callback);
  }
}
