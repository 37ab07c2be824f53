/**
 * The persisted command counter and epoch (ARCHITECTURE.md §4): `seq` strictly increases across restarts and is
 * never reused; `epoch` is bumped on every stop, fault and configuration change.
 *
 * Writes are atomic and durable (durable-file.ts).
 * To keep `next()` off the disk on the hot path, the store reserves seqs in blocks: it persists a
 * high-water mark `reservedSeq` and hands out seqs below it from memory. After a crash the next process
 * starts above the mark, so some seqs are skipped — never reused, which is what the controller needs.
 *
 * Epochs are reserved in blocks the same way (`reservedEpoch`), because an fsync on every protective STOP
 * (≈5–10 ms here) would cost more than the whole 2 ms STOP budget. Why this is safe: the first bump after a
 * store is opened jumps past the previous process's whole reservation, and the EdgeGate bumps the epoch when
 * it is constructed — so a restarted edge always signs with an epoch above every epoch the previous process
 * could have used, even if it died before recording its last bump. Epochs may be skipped, never reused or
 * lowered; the controller adopts any higher epoch (ARCHITECTURE.md §4 acceptance). Inside a reservation, a bump
 * still records the new epoch in the file, by overwriting the fixed-width record in place without fsync
 * (≈0.1 ms): it survives a process crash (page cache) and is only informative after a power loss, where the
 * reservation is what keeps epochs increasing. The record is 128 bytes at offset 0 (one disk sector), so an
 * in-place overwrite is not torn on disks with atomic sector writes.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { PentagateError, describeValue, readJson } from '@pentagate/protocol';
import { replaceFileDurably } from './durable-file.js';

export interface SequenceStore {
  /** The next command seq (≥ 1), strictly greater than every seq handed out before, even before a restart. */
  next(): number;
  /** The current epoch. */
  epoch(): number;
  /** Raises the epoch by one, durably, and returns it. */
  bumpEpoch(): number;
}

/** A sequence store file that cannot be read or trusted. The edge refuses to start rather than reuse seqs. */
export class SequenceStoreError extends PentagateError {
  constructor(message: string) {
    super('SEQUENCE_STORE', message);
  }
}

/** In-memory store for tests and benchmarks: the same rules, no persistence. */
export class MemorySequenceStore implements SequenceStore {
  #seq: number;
  #epoch: number;

  constructor(start: { seq?: number; epoch?: number } = {}) {
    this.#seq = start.seq ?? 0;
    this.#epoch = start.epoch ?? 0;
  }

  next(): number {
    this.#seq += 1;
    return this.#seq;
  }

  epoch(): number {
    return this.#epoch;
  }

  bumpEpoch(): number {
    this.#epoch += 1;
    return this.#epoch;
  }
}

interface StoreFile {
  v: 1;
  reservedSeq: number;
  /** The latest epoch recorded (informative after a power loss, see the module comment). */
  epoch: number;
  /** Every epoch handed out so far is ≤ this (durable). Absent in files written before epoch blocks. */
  reservedEpoch: number;
}

/** Fixed record width, bytes: in-place overwrites must always cover the whole previous record. */
const RECORD_BYTES = 128;

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

function record(state: StoreFile): Buffer {
  const text = JSON.stringify(state);
  if (text.length > RECORD_BYTES - 1) {
    throw new SequenceStoreError(`sequence record of ${text.length} bytes exceeds ${RECORD_BYTES - 1}`);
  }
  return Buffer.from(`${text.padEnd(RECORD_BYTES - 1, ' ')}\n`, 'utf8');
}

function writeDurably(path: string, state: StoreFile): void {
  replaceFileDurably(path, record(state));
}

/** Overwrites the record in place, no fsync: fast, survives a process crash, not necessarily a power loss. */
function writeInPlace(path: string, state: StoreFile): void {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, record(state), 0, RECORD_BYTES, 0);
  } finally {
    closeSync(fd);
  }
}

export class FileSequenceStore implements SequenceStore {
  /** Seqs (and epochs) reserved per durable disk write. */
  static readonly BLOCK = 1024;
  readonly path: string;
  #state: StoreFile;
  #lastSeq: number;
  /** True until the first bump: that bump jumps past the reservation an earlier process may have used. */
  #freshlyOpened = true;

  private constructor(path: string, state: StoreFile) {
    this.path = path;
    this.#state = state;
    this.#lastSeq = state.reservedSeq;
  }

  /**
   * Opens (or creates) the store at `path` and reserves the first block of seqs right away, so the durable
   * write happens at start-up and not inside the first trapAndSign (where its fsync stalled the node long
   * enough on a loaded host for the first motion to be stopped on stale data). Throws SequenceStoreError if
   * the file is damaged.
   */
  static open(path: string): FileSequenceStore {
    const store = FileSequenceStore.#load(path);
    store.#reserveSeqBlock();
    return store;
  }

  static #load(path: string): FileSequenceStore {
    let text: string | undefined;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new SequenceStoreError(`cannot read sequence store ${path}: ${(err as Error).message}`);
      }
    }
    if (text === undefined) {
      const state: StoreFile = { v: 1, reservedSeq: 0, epoch: 0, reservedEpoch: 0 };
      writeDurably(path, state);
      return new FileSequenceStore(path, state);
    }
    let value: unknown;
    try {
      value = readJson(text, { what: 'sequence store' });
    } catch (err) {
      throw new SequenceStoreError(`sequence store ${path} is damaged: ${(err as Error).message}`);
    }
    const s = value as Partial<StoreFile> | null;
    if (
      !s ||
      typeof s !== 'object' ||
      s.v !== 1 ||
      !isCount(s.reservedSeq) ||
      !isCount(s.epoch) ||
      (s.reservedEpoch !== undefined && !isCount(s.reservedEpoch))
    ) {
      throw new SequenceStoreError(
        `sequence store ${path}: expected { v: 1, reservedSeq: integer >= 0, epoch: integer >= 0, reservedEpoch?: integer >= 0 }, got ${describeValue(value)} ${text.slice(0, 80)}`,
      );
    }
    // A file from before epoch blocks recorded every epoch durably: its epoch is the reservation.
    const reservedEpoch = Math.max(s.epoch, s.reservedEpoch ?? s.epoch);
    return new FileSequenceStore(path, { v: 1, reservedSeq: s.reservedSeq, epoch: s.epoch, reservedEpoch });
  }

  /** Persists a new high-water mark before any seq below it is handed out: a crash skips seqs, never reuses. */
  #reserveSeqBlock(): void {
    const state: StoreFile = { ...this.#state, reservedSeq: this.#lastSeq + FileSequenceStore.BLOCK };
    writeDurably(this.path, state);
    this.#state = state;
  }

  next(): number {
    const seq = this.#lastSeq + 1;
    if (seq > this.#state.reservedSeq) this.#reserveSeqBlock();
    this.#lastSeq = seq;
    return seq;
  }

  epoch(): number {
    return this.#state.epoch;
  }

  bumpEpoch(): number {
    const from = this.#freshlyOpened ? this.#state.reservedEpoch : this.#state.epoch;
    const epoch = from + 1;
    if (epoch > this.#state.reservedEpoch) {
      // Persist the reservation before handing the epoch out: a crash now skips epochs, never reuses them.
      const state: StoreFile = {
        ...this.#state,
        epoch,
        reservedEpoch: epoch + FileSequenceStore.BLOCK - 1,
      };
      writeDurably(this.path, state);
      this.#state = state;
    } else {
      const state: StoreFile = { ...this.#state, epoch };
      writeInPlace(this.path, state);
      this.#state = state;
    }
    this.#freshlyOpened = false;
    return epoch;
  }
}
