/**
 * Opens the store named by `--db`: `sqlite:PATH` (or a bare path) for the embedded store, a
 * `postgres://` / `postgresql://` URL for the shared one.
 */
import { UsageError } from '@pentagate/protocol';
import { PostgresStore } from './postgres-store.js';
import { SqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';

/** The embedded database's file (or ':memory:') a `--db` value names; undefined for a PostgreSQL URL. */
export function sqlitePathOf(db: string): string | undefined {
  // URL schemes are case-insensitive (RFC 3986 §3.1)
  if (/^postgres(ql)?:\/\//i.test(db)) return undefined;
  // Any other URL (mysql://…, or a misspelt postgre://…) is a mistake, not a path: read as one, it would
  // quietly make an empty SQLite database in a folder named after the scheme.
  const otherUrl = db.startsWith('sqlite:') ? null : /^([a-z][a-z0-9+.-]*):\/\//i.exec(db);
  const path = db.startsWith('sqlite:') ? db.slice('sqlite:'.length) : db;
  if (path.length === 0 || otherUrl) {
    const why = otherUrl ? ` (${otherUrl[1]}:// is not a store Pentagate can use)` : '';
    throw new UsageError(`--db: expected sqlite:PATH or postgres://…, got ${JSON.stringify(db)}${why}`);
  }
  return path;
}

export async function openStore(db: string): Promise<Store> {
  const path = sqlitePathOf(db);
  return path === undefined ? PostgresStore.open({ url: db }) : new SqliteStore({ path });
}
