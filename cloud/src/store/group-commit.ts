/**
 * Group commit, for both dialects: writes queue while a batch is committing; the next batch runs them all
 * in ONE transaction, and one write that throws rolls back alone and rejects alone (each dialect runs the
 * batch plain first, then again with a savepoint per write when one threw). No write is answered before
 * its batch is durable; a batch whose transaction fails as a whole (COMMIT, I/O) rejects every write in it.
 *
 * The dialect says how a batch commits and when it is durable (`CommitBatch`): SQLite commits on the event
 * loop and fdatasyncs the WAL afterwards, off it (sqlite-write-queue.ts), so the next batch may commit
 * while that fdatasync runs; PostgreSQL's COMMIT returns once the WAL is flushed (synchronous_commit=on),
 * so its batch is durable when it has committed (postgres-group-commit.ts).
 */

/** What became of one write of a committed batch. */
export type WriteOutcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export interface CommittedBatch {
  /** One per write, in the order the writes were handed over. */
  outcomes: WriteOutcome[];
  /** Settles once the commit is durable; a rejection fails every write of the batch. */
  durable: Promise<void>;
}

/**
 * Runs `writes` in one transaction, each failing alone, and returns once it has committed. Throws
 * (or rejects) when the transaction failed as a whole: then nothing of the batch is committed.
 */
export type CommitBatch<W> = (writes: readonly W[]) => CommittedBatch | Promise<CommittedBatch>;

interface Queued<W> {
  write: W;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class GroupCommitQueue<W> {
  readonly #commit: CommitBatch<W>;
  readonly #maxBatch: number;
  #pending: Queued<W>[] = [];
  /** A flush is due on the next turn of the event loop (setImmediate). */
  #scheduled = false;
  /** A batch is between BEGIN and COMMIT; the next one waits for it. */
  #committing = false;
  /** Batches committed whose durability has not settled yet. */
  #awaitingDurable = 0;
  #idleWaiters: (() => void)[] = [];

  /** `maxBatch`: the most writes in one transaction; the rest wait for the next batch. */
  constructor(commit: CommitBatch<W>, maxBatch = Number.POSITIVE_INFINITY) {
    this.#commit = commit;
    this.#maxBatch = maxBatch;
  }

  /** Queues `write` for the next batch; resolves with its value once that batch is durable. */
  enqueue<T>(write: W): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  /** Resolves once every write queued so far is committed and durable (or failed). */
  drained(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * One flush per turn of the event loop, and none while a batch commits: the writes that arrive meanwhile
   * (every I/O callback of the turn, every request answered while the batch ran) form the next batch.
   */
  #schedule(): void {
    if (this.#scheduled || this.#committing || this.#pending.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#scheduled = false;
    const batch = this.#pending.splice(0, this.#maxBatch);
    this.#committing = true;
    let committed: Promise<CommittedBatch>;
    try {
      committed = Promise.resolve(this.#commit(batch.map((q) => q.write)));
    } catch (err) {
      committed = Promise.reject(err);
    }
    committed.then(
      ({ outcomes, durable }) => {
        this.#committing = false;
        this.#awaitingDurable += 1;
        durable
          .then(
            () =>
              batch.forEach((q, i) => {
                const outcome = outcomes[i]!;
                if (outcome.ok) q.resolve(outcome.value);
                else q.reject(outcome.error);
              }),
            (err: unknown) => {
              for (const q of batch) q.reject(err);
            },
          )
          .finally(() => {
            this.#awaitingDurable -= 1;
            this.#maybeIdle();
          });
        this.#schedule();
      },
      (err: unknown) => {
        // the transaction failed as a whole: nothing of the batch is committed, so all of it fails
        this.#committing = false;
        for (const q of batch) q.reject(err);
        this.#schedule();
        this.#maybeIdle();
      },
    );
  }

  #isIdle(): boolean {
    return this.#pending.length === 0 && !this.#scheduled && !this.#committing && this.#awaitingDurable === 0;
  }

  #maybeIdle(): void {
    if (!this.#isIdle()) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const w of waiters) w();
  }
}
