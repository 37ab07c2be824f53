/**
 * Group commit for SQLite. Writes that arrive in the same turn of the event loop run in ONE transaction,
 * so one fsync (synchronous=FULL) makes a whole batch durable instead of one fsync per request. Each write
 * runs in its own savepoint: one write that throws rolls back alone and rejects alone. Promises resolve only
 * after COMMIT returned, so no response goes out before its audit entry is on disk (DESIGN.md §5).
 */
import type Database from 'better-sqlite3';

interface PendingWrite {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class SqliteWriteQueue {
  readonly #db: Database.Database;
  #pending: PendingWrite[] = [];
  #scheduled = false;
  #idle: Promise<void> = Promise.resolve();
  #markIdle: (() => void) | undefined;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** Queues `run` (synchronous, using the database) for the next group commit. */
  enqueue<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ run, resolve: resolve as (v: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        this.#idle = new Promise((done) => {
          this.#markIdle = done;
        });
        setImmediate(() => this.#flush());
      }
    });
  }

  /** Resolves once every write queued so far is committed (or failed). */
  drained(): Promise<void> {
    return this.#idle;
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
      this.#settleIdle();
      return;
    }
    batch.forEach((write, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.value);
    });
    this.#settleIdle();
  }

  #settleIdle(): void {
    if (!this.#scheduled) this.#markIdle?.();
  }
}
