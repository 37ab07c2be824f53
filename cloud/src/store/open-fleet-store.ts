/** The fleet store matching a platform store: composed on it, sharing its database and audit log. */
import type { FleetStore } from './fleet-store.js';
import { PostgresFleetStore } from './postgres-fleet-store.js';
import { PostgresStore } from './postgres-store.js';
import { SqliteFleetStore } from './sqlite-fleet-store.js';
import { SqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';
import { StoreError } from './store-error.js';

export async function openFleetStore(store: Store): Promise<FleetStore> {
  if (store instanceof SqliteStore) return SqliteFleetStore.open(store);
  if (store instanceof PostgresStore) return PostgresFleetStore.open(store);
  throw new StoreError(`the fleet needs a SqliteStore or PostgresStore, got a store of kind ${store.kind}`);
}
