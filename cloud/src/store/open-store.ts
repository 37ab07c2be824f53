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
  if (/^postgres(ql)?:\/\//.test(db)) return undefined;
  const path = db.startsWith('sqlite:') ? db.slice('sqlite:'.length) : db;
  if (path.length === 0)
    throw new UsageError(`--db: expected sqlite:PATH or postgres://…, got ${JSON.stringify(db)}`);
  return path;
}

export async function openStore(db: string): Promise<Store> {
  const path = sqlitePathOf(db);
  return path === undefined ? PostgresStore.open({ url: db }) : new SqliteStore({ path });
}
