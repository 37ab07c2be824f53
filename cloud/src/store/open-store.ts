/**
 * Opens the store named by `--db`: `sqlite:PATH` (or a bare path) for the embedded store, a
 * `postgres://` / `postgresql://` URL for the shared one.
 */
import { UsageError } from '@pentagate/protocol';
import { PostgresStore } from './postgres-store.js';
import { SqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';

export async function openStore(db: string): Promise<Store> {
  if (/^postgres(ql)?:\/\//.test(db)) return PostgresStore.open({ url: db });
  const path = db.startsWith('sqlite:') ? db.slice('sqlite:'.length) : db;
  if (path.length === 0)
    throw new UsageError(`--db: expected sqlite:PATH or postgres://…, got ${JSON.stringify(db)}`);
  return new SqliteStore({ path });
}
