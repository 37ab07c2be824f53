/**
 * Checkpoints the SQLite WAL into the database file on a worker thread, off the event loop.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that crosses `wal_autocheckpoint` pages, on the
 * connection that committed — here the event loop: it copies every page written since the last one into
 * the database file and fsyncs the WAL and the file (~10 ms for 4,000 pages under the propose load, during
 * which no request is served). This worker has its own connection to the same file and runs a PASSIVE
 * checkpoint (https://sqlite.org/c3ref/wal_checkpoint_v2.html) at most every `intervalMs` while commits
 * arrive: PASSIVE takes no writer lock, so the event loop keeps committing while the pages are copied.
 *
 * The store keeps `wal_autocheckpoint` on its own connection as the bound on the WAL: SQLite restarts the
 * WAL from its start only when every frame has been copied, which a checkpoint running beside a steady
 * stream of commits rarely sees; the automatic checkpoint then has only the frames written since the
 * worker's last pass to copy. If the worker cannot start or fails, that automatic checkpoint does all the
 * work, as it did before: nothing depends on the worker for correctness or durability (under
 * synchronous=NORMAL SQLite syncs the WAL before a checkpoint and the database file after it;
 * https://sqlite.org/pragma.html#pragma_synchronous).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Least time between two checkpoints the worker is asked for (commits in between just mark the WAL dirty). */
export const CHECKPOINT_INTERVAL_MS = 200;

/** What `PRAGMA wal_checkpoint(PASSIVE)` answered: frames in the WAL and frames now in the database file. */
export interface CheckpointResult {
  walFrames: number;
  checkpointedFrames: number;
}

interface WorkerReply {
  ok: boolean;
  walFrames?: number;
  checkpointedFrames?: number;
  message?: string;
}

// The worker's whole program. It is evaluated (not loaded from a file) so it runs the same from the
// compiled package and from the TypeScript sources under test; the driver's path comes from here, so the
// worker loads the same better-sqlite3 build as the store.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
db.pragma('synchronous = NORMAL');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const row = db.pragma('wal_checkpoint(PASSIVE)')[0];
    parentPort.postMessage({ ok: true, walFrames: row.log, checkpointedFrames: row.checkpointed });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: String(error && error.message) });
  }
});
`;

const driverPath = createRequire(import.meta.url).resolve('better-sqlite3');

export class SqliteCheckpointer {
  readonly #path: string;
  readonly #intervalMs: number;
  /** Started at the first checkpoint asked for: a command that opens the store for one write never needs it. */
  #worker: Worker | undefined;
  #exited: Promise<void> = Promise.resolve();
  #lastAskedMs: number;
  /** One entry per message posted and not yet answered (the worker answers in order). */
  #inFlight: ((reply: WorkerReply) => void)[] = [];
  #failed: string | undefined;
  /** close() began: the worker stays referenced until it has closed its connection and exited. */
  #closing = false;

  constructor(path: string, intervalMs = CHECKPOINT_INTERVAL_MS, nowMs = performance.now()) {
    this.#path = path;
    this.#intervalMs = intervalMs;
    this.#lastAskedMs = nowMs;
  }

  /** Why the worker stopped, if it did (the store then checkpoints on its own connection only). */
  get failure(): string | undefined {
    return this.#failed;
  }

  /** Called after each committed batch: asks for a checkpoint unless one runs or was asked for lately. */
  afterCommit(nowMs = performance.now()): void {
    if (this.#failed !== undefined || this.#inFlight.length > 0) return;
    if (nowMs - this.#lastAskedMs < this.#intervalMs) return;
    this.#lastAskedMs = nowMs;
    this.#ask(() => {});
  }

  /** Runs a checkpoint now (after the one in progress) and resolves with what it copied. */
  checkpoint(): Promise<CheckpointResult> {
    return new Promise((resolve, reject) => {
      this.#ask((reply) => {
        if (reply.ok) {
          resolve({ walFrames: reply.walFrames ?? 0, checkpointedFrames: reply.checkpointedFrames ?? 0 });
        } else reject(new Error(`WAL checkpoint failed: ${reply.message ?? 'unknown error'}`));
      });
    });
  }

  #ask(settle: (reply: WorkerReply) => void): void {
    if (this.#failed !== undefined) {
      settle({ ok: false, message: this.#failed });
      return;
    }
    let worker: Worker;
    try {
      worker = this.#worker ?? this.#start();
      worker.postMessage('checkpoint');
    } catch (error) {
      // Never thrown to the caller: afterCommit runs after a batch has committed, and a throw there would
      // fail writes that are in the database. The automatic checkpoint takes over (see above).
      this.#failed = (error as Error).message;
      settle({ ok: false, message: this.#failed });
      return;
    }
    this.#inFlight.push(settle);
    // Referenced while a checkpoint runs (its answer is awaited), not while idle: an idle worker must not
    // keep a process alive whose work is done, even one that never closed its store.
    if (this.#inFlight.length === 1) worker.ref();
  }

  #start(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path: this.#path, driverPath } });
    worker.on('message', (reply: WorkerReply) => {
      this.#inFlight.shift()?.(reply);
      if (this.#inFlight.length === 0 && !this.#closing) worker.unref();
    });
    this.#exited = new Promise((resolve) => {
      worker.once('exit', () => resolve());
    });
    worker.once('error', (error) => {
      // The automatic checkpoint on the store's connection takes over (see above).
      this.#failed = error.message;
      const waiting = this.#inFlight;
      this.#inFlight = [];
      for (const settle of waiting) settle({ ok: false, message: error.message });
    });
    // Unreferenced until asked (below); after the listeners, since adding a 'message' listener
    // references the worker again.
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  /** Closes the worker's connection; the store's connection, closed after it, is the last and removes the WAL. */
  async close(): Promise<void> {
    if (this.#worker === undefined) return;
    // Unreferenced, the worker would let the process end before it closed its connection.
    this.#closing = true;
    this.#worker.ref();
    if (this.#failed === undefined) this.#worker.postMessage('close');
    else await this.#worker.terminate();
    await this.#exited;
  }
}
