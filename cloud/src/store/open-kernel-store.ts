/** The kernel store matching a platform store: composed on it, sharing its database and audit log. */
import type { KernelStore } from './kernel-store.js';
import { PostgresKernelStore } from './postgres-kernel-store.js';
import { PostgresStore } from './postgres-store.js';
import { SqliteKernelStore } from './sqlite-kernel-store.js';
import { SqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';
import { StoreError } from './store-error.js';

export async function openKernelStore(store: Store): Promise<KernelStore> {
  if (store instanceof SqliteStore) return SqliteKernelStore.open(store);
  if (store instanceof PostgresStore) return PostgresKernelStore.open(store);
  throw new StoreError(`the kernel needs a SqliteStore or PostgresStore, got a store of kind ${store.kind}`);
}
