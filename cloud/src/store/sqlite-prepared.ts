/**
 * Statements prepared once per connection and SQL text. better-sqlite3's `prepare()` compiles the SQL on
 * every call (tens of µs); the kernel, fleet and consent stores called it on every request, a visible share
 * of a propose. Their SQL is a fixed set of texts (and a few per filter combination), so the cache stays
 * small; past `MAX_CACHED` texts a statement is prepared as before and not kept.
 */
import type Database from 'better-sqlite3';

const MAX_CACHED = 512;
const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

export function preparedOnce(db: Database.Database, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (cache === undefined) {
    cache = new Map();
    caches.set(db, cache);
  }
  let statement = cache.get(sql);
  if (statement === undefined) {
    statement = db.prepare(sql);
    if (cache.size < MAX_CACHED) cache.set(sql, statement);
  }
  return statement;
}
