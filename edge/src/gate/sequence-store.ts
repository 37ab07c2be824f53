/**
 * The persisted command counter and epoch (DESIGN.md §4): `seq` strictly increases across restarts and is
 * never reused; `epoch` is bumped on every stop, fault and configuration change.
 *
 * Writes are atomic and durable: write a temporary file, fsync it, rename it over the old one, fsync the
 * directory (POSIX rename is atomic; the directory fsync makes the rename survive power loss).
 * To keep `next()` off the disk on the hot path, the store reserves seqs in blocks: it persists a
 * high-water mark `reservedSeq` and hands out seqs below it from memory. After a crash the next process
 * starts above the mark, so some seqs are skipped — never reused, which is what the controller needs.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { PentagateError, describeValue, readJson } from '@pentagate/protocol';

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
  epoch: number;
}

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

function writeDurably(path: string, state: StoreFile): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(state)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

export class FileSequenceStore implements SequenceStore {
  /** Seqs reserved per disk write. */
  static readonly BLOCK = 1024;
  readonly path: string;
  #state: StoreFile;
  #lastSeq: number;

  private constructor(path: string, state: StoreFile) {
    this.path = path;
    this.#state = state;
    this.#lastSeq = state.reservedSeq;
  }

  /** Opens (or creates) the store at `path`. Throws SequenceStoreError if the file is damaged. */
  static open(path: string): FileSequenceStore {
    let text: string | undefined;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new SequenceStoreError(`cannot read sequence store ${path}: ${(err as Error).message}`);
      }
    }
    if (text === undefined) {
      const state: StoreFile = { v: 1, reservedSeq: 0, epoch: 0 };
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
    if (!s || typeof s !== 'object' || s.v !== 1 || !isCount(s.reservedSeq) || !isCount(s.epoch)) {
      throw new SequenceStoreError(
        `sequence store ${path}: expected { v: 1, reservedSeq: integer >= 0, epoch: integer >= 0 }, got ${describeValue(value)} ${text.slice(0, 80)}`,
      );
    }
    return new FileSequenceStore(path, { v: 1, reservedSeq: s.reservedSeq, epoch: s.epoch });
  }

  next(): number {
    const seq = this.#lastSeq + 1;
    if (seq > this.#state.reservedSeq) {
      const state: StoreFile = { ...this.#state, reservedSeq: this.#lastSeq + FileSequenceStore.BLOCK };
      writeDurably(this.path, state); // persist before handing out: a crash now skips seqs, never reuses
      this.#state = state;
    }
    this.#lastSeq = seq;
    return seq;
  }

  epoch(): number {
    return this.#state.epoch;
  }

  bumpEpoch(): number {
    const state: StoreFile = { ...this.#state, epoch: this.#state.epoch + 1 };
    writeDurably(this.path, state);
    this.#state = state;
    return state.epoch;
  }
}
