/**
 * The reads of one turn of the event loop share one SQLite read transaction.
 *
 * In WAL mode every statement outside a transaction begins and ends a read transaction of its own, and
 * each begin and end takes or drops a lock on the shared-memory wal-index with `fcntl` (two system calls a
 * read, and after each commit two more to move a read mark; https://www.sqlite.org/wal.html §"Sometimes
 * Queries Return SQLITE_BUSY In WAL Mode", `unixShmLock`). A propose made about eight such reads (key,
 * agent, idempotency key, call history, budget) before its write: measured with `strace`, an indexed
 * single-row read cost ~12 µs on its own against ~3 µs inside a transaction.
 *
 * So the first read of a turn opens a deferred transaction (`BEGIN`), every read after it in the same turn
 * — of any request — runs inside it, and it ends (`COMMIT`, which for a read transaction only drops the
 * lock) at the turn's end (`setImmediate`), before any write, and when the store closes. What a read sees:
 * everything this connection committed (its only writer, the group-commit queue, ends the snapshot before
 * each batch), and what other processes (the CLI revoking a key) committed before the turn's first read;
 * their later commits are seen from the next turn, one event-loop turn later than before.
 */
import type Database from 'better-sqlite3';

export class SqliteReadSnapshot {
  readonly #db: Database.Database;
  readonly #begin: Database.Statement;
  readonly #commit: Database.Statement;
  #open = false;
  readonly #endOfTurn = (): void => this.end();

  constructor(db: Database.Database) {
    this.#db = db;
    this.#begin = db.prepare('BEGIN DEFERRED');
    this.#commit = db.prepare('COMMIT');
  }

  /**
   * Before a read: opens this turn's read transaction unless one is open. Inside a write's transaction
   * (a read of the group-commit batch) nothing is opened: that transaction already reads consistently.
   */
  join(): void {
    if (this.#open || this.#db.inTransaction) return;
    this.#begin.run();
    this.#open = true;
    setImmediate(this.#endOfTurn);
  }

  /** Ends the read transaction if one is open: before each write batch, at the turn's end, at close. */
  end(): void {
    if (!this.#open) return;
    this.#open = false;
    // The connection may have been closed under an open snapshot (a test's forced close); nothing to end.
    if (this.#db.open && this.#db.inTransaction) this.#commit.run();
  }
}
