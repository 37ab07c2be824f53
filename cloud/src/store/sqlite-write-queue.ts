/**
 * Group commit for SQLite (the queue itself is group-commit.ts, shared with PostgreSQL). Writes that arrive
 * in the same turn of the event loop run in ONE transaction; one write that throws rolls back alone and
 * rejects alone: the batch is then run again with each write in its own savepoint (commitBatch).
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
import { type CommittedBatch, GroupCommitQueue, type WriteOutcome } from './group-commit.js';

/** How the queue makes the WAL durable: `fs.fdatasync`, or a stand-in that tests hold and release. */
export type SyncFile = (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => void;

/** How a queue commits and makes its batches durable; every field has a default. */
export interface SqliteWriteQueueOptions {
  /** The WAL file to fdatasync after each batch; undefined: synchronous=FULL already synced each commit. */
  walFd?: number | undefined;
  syncFile?: SyncFile | undefined;
  /**
   * Called before each batch's BEGIN IMMEDIATE: the store ends its turn's read transaction
   * (sqlite-read-snapshot.ts), which the batch would otherwise join as a savepoint, committing only when
   * the read transaction ended.
   */
  beforeBatch?: () => void;
  /**
   * Called once each batch has committed (the store's WAL checkpointer); it must not throw, since the batch
   * is in the database by then.
   */
  afterCommit?: () => void;
}

export class SqliteWriteQueue {
  readonly #queue: GroupCommitQueue<() => unknown>;

  constructor(db: Database.Database, options: SqliteWriteQueueOptions = {}) {
    const { walFd, syncFile = fdatasync, beforeBatch = () => {}, afterCommit = () => {} } = options;
    const wal = walFd === undefined ? undefined : new WalSync(walFd, syncFile);
    this.#queue = new GroupCommitQueue((writes) => {
      beforeBatch();
      const batch = commitBatch(db, writes, wal);
      afterCommit();
      return batch;
    });
  }

  /**
   * Queues `run` (synchronous, using the database) for the next group commit. It may run twice (again in a
   * savepoint of its own when a write of its batch threw), so it acts on nothing but the database.
   */
  enqueue<T>(run: () => T): Promise<T> {
    return this.#queue.enqueue(run);
  }

  /** Resolves once every write queued so far is committed and durable (or failed). */
  drained(): Promise<void> {
    return this.#queue.drained();
  }
}

/**
 * The batch in one IMMEDIATE transaction, on the event loop; its fdatasync is asked for once it committed.
 *
 * No savepoint per write: in a transaction, every page a savepoint's write changes first is copied into
 * SQLite's statement journal, which past 64 KiB (SQLITE_STMTJRNL_SPILL) is a temporary file — a decision
 * touches enough pages that it spilled each time, ~59 pwrite calls per decision on the event loop, and
 * ~16 % of a propose's CPU with SAVEPOINT and RELEASE. A write fails only on a rare conflict (a composed
 * row's key taken, a bad entry), so the batch runs plain first; when a write throws, the transaction is
 * rolled back whole and the batch runs again with a savepoint per write (commitBatchIsolated), where the
 * failing write fails alone: the same outcomes, at twice the cost for that batch only (as on PostgreSQL,
 * postgres-group-commit.ts).
 */
function commitBatch(
  db: Database.Database,
  writes: readonly (() => unknown)[],
  wal: WalSync | undefined,
): CommittedBatch {
  // Nested in another transaction the batch would be a savepoint, committed only when that one ends.
  if (db.inTransaction) throw new Error('a write batch began inside an open transaction');
  const outcomes = commitBatchPlain(db, writes) ?? commitBatchIsolated(db, writes);
  return { outcomes, durable: wal ? wal.sync() : Promise.resolve() };
}

/** Thrown out of the plain run's transaction by a write that failed, so that it rolls back whole. */
class WriteFailed {}

/** Every write in one transaction; undefined (nothing kept) when one of them threw. */
function commitBatchPlain(
  db: Database.Database,
  writes: readonly (() => unknown)[],
): WriteOutcome[] | undefined {
  const all = db.transaction(() =>
    writes.map((run): WriteOutcome => {
      try {
        return { ok: true, value: run() };
      } catch {
        throw new WriteFailed(); // the isolated run below says which write failed, and why
      }
    }),
  );
  try {
    return all.immediate();
  } catch (err) {
    if (err instanceof WriteFailed) return undefined;
    throw err; // BEGIN or COMMIT failed: the batch fails as a whole
  }
}

/** Each write in its own savepoint, so one write that throws rolls back alone and rejects alone. */
function commitBatchIsolated(db: Database.Database, writes: readonly (() => unknown)[]): WriteOutcome[] {
  const outcomes: WriteOutcome[] = [];
  db.transaction(() => {
    for (const run of writes) {
      try {
        // a nested better-sqlite3 transaction is a SAVEPOINT
        outcomes.push({ ok: true, value: db.transaction(run)() });
      } catch (error) {
        outcomes.push({ ok: false, error });
      }
    }
  }).immediate();
  return outcomes;
}

/** One fdatasync of the WAL at a time; each covers every batch committed before it started. */
class WalSync {
  readonly #fd: number;
  readonly #syncFile: SyncFile;
  #waiting: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  #syncing = false;

  constructor(fd: number, syncFile: SyncFile) {
    this.#fd = fd;
    this.#syncFile = syncFile;
  }

  /** Settles once an fdatasync that began after this call has completed. */
  sync(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      this.#next();
    });
  }

  #next(): void {
    if (this.#syncing || this.#waiting.length === 0) return;
    const covered = this.#waiting;
    this.#waiting = [];
    this.#syncing = true;
    this.#syncFile(this.#fd, (err) => {
      this.#syncing = false;
      for (const w of covered) {
        if (err) w.reject(err);
        else w.resolve();
      }
      this.#next();
    });
  }
}
