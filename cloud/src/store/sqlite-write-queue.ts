/**
 * Group commit for SQLite. Writes that arrive in the same turn of the event loop run in ONE transaction,
 * and each write runs in its own savepoint, so one write that throws rolls back alone and rejects alone.
 *
 * Durability without blocking the event loop: the database runs WAL with synchronous=NORMAL (a commit
 * appends to the WAL without fsync), and after each batch this queue calls `fdatasync` on the WAL file
 * through libuv's thread pool. A write's promise resolves only once an fdatasync that began after its
 * COMMIT has completed — the same guarantee synchronous=FULL gives (ARCHITECTURE.md §5: durable before the
 * response) — while the event loop keeps serving requests, whose writes form the next batch. One fsync
 * covers every batch committed before it started. A frame checkpointed into the main file meanwhile is
 * durable there: SQLite syncs the WAL and the database at every checkpoint even under NORMAL.
 */
import { fdatasync } from 'node:fs';
import type Database from 'better-sqlite3';

interface PendingWrite {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Settle = () => void;

/** How the queue makes the WAL durable: `fs.fdatasync`, or a stand-in that tests hold and release. */
export type SyncFile = (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => void;

export class SqliteWriteQueue {
  readonly #db: Database.Database;
  /** The WAL file to fdatasync after each batch; undefined: synchronous=FULL already synced each commit. */
  readonly #walFd: number | undefined;
  #pending: PendingWrite[] = [];
  #scheduled = false;
  /** Batches committed but not yet covered by a completed fdatasync. */
  #awaitingSync: { settle: Settle[]; fail: ((err: unknown) => void)[] } = { settle: [], fail: [] };
  #syncing = false;
  #idleWaiters: (() => void)[] = [];
  readonly #syncFile: SyncFile;

  constructor(db: Database.Database, walFd?: number, syncFile: SyncFile = fdatasync) {
    this.#db = db;
    this.#walFd = walFd;
    this.#syncFile = syncFile;
  }

  /** Queues `run` (synchronous, using the database) for the next group commit. */
  enqueue<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ run, resolve: resolve as (v: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  /** Resolves once every write queued so far is committed and durable (or failed). */
  drained(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #isIdle(): boolean {
    return !this.#scheduled && !this.#syncing && this.#awaitingSync.settle.length === 0;
  }

  #flush(): void {
    const batch = this.#pending;
    this.#pending = [];
    this.#scheduled = false;
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      this.#db
        .transaction(() => {
          for (const write of batch) {
            try {
              // a nested better-sqlite3 transaction is a SAVEPOINT: a throwing write rolls back alone
              outcomes.push({ ok: true, value: this.#db.transaction(write.run)() });
            } catch (err) {
              outcomes.push({ ok: false, value: err });
            }
          }
        })
        .immediate();
    } catch (err) {
      // COMMIT itself failed (disk full, I/O error): nothing of the batch is durable, so all of it fails.
      for (const write of batch) write.reject(err);
      this.#maybeIdle();
      return;
    }
    const settle = () =>
      batch.forEach((write, i) => {
        const outcome = outcomes[i]!;
        if (outcome.ok) write.resolve(outcome.value);
        else write.reject(outcome.value);
      });
    if (this.#walFd === undefined) {
      settle();
      this.#maybeIdle();
      return;
    }
    this.#awaitingSync.settle.push(settle);
    this.#awaitingSync.fail.push((err) => {
      for (const write of batch) write.reject(err);
    });
    this.#sync();
  }

  /** One fdatasync at a time; each covers every batch committed before it started. */
  #sync(): void {
    if (this.#syncing || this.#awaitingSync.settle.length === 0) return;
    const covered = this.#awaitingSync;
    this.#awaitingSync = { settle: [], fail: [] };
    this.#syncing = true;
    this.#syncFile(this.#walFd!, (err) => {
      this.#syncing = false;
      if (err) for (const fail of covered.fail) fail(err);
      else for (const settle of covered.settle) settle();
      this.#sync();
      this.#maybeIdle();
    });
  }

  #maybeIdle(): void {
    if (!this.#isIdle()) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const w of waiters) w();
  }
}
