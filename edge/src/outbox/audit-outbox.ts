/**
 * The audit outbox: every verdict the edge reaches, with its evidence digest, appended
 * to a local file of JSON lines that survives restarts and power loss, and forwarded to the cloud later.
 *
 * Durability: appends are group-committed. Appends made in the same turn of the event loop, and those
 * made while a previous batch is being synced, go to disk in ONE write followed by ONE fdatasync; each
 * append's promise resolves only after that fdatasync. The edge awaits the append before it publishes a
 * signed motion command, so no command is ever out without its record on disk (fail closed). A protective
 * STOP is the exception: it is published first and recorded right after, because a stop must never wait
 * for a disk (see node/edge-node.ts).
 *
 * A failed write or sync poisons the outbox (every later append rejects): after a failed fsync the page
 * cache and the disk may disagree, and retrying would claim durability that does not exist.
 *
 * Compaction (`compact`): records the cloud has acknowledged are dropped by writing the rest to a new file
 * and renaming it over the old one (atomic: a crash leaves one or the other). The last acknowledged record
 * stays as the anchor the remaining chain hangs from, so indexes and the hash chain carry on unchanged.
 */
import { type FileHandle, mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { VerdictEvent } from '@pentagate/protocol';
import { EdgeRuntimeError } from '../node/runtime-error.js';
import { readAckCursor, syncDirectory, writeAckCursor } from './ack-cursor.js';
import { decodeRecord, encodeRecord, lineDigest, makeRecord, type OutboxRecord } from './outbox-record.js';
import { scanOutbox } from './outbox-scan.js';

/** Receives a batch of records in index order; resolving means the receiver has stored them. */
export type OutboxSink = (records: readonly OutboxRecord[]) => Promise<void>;

export interface AuditOutboxOptions {
  /** Clock for `appendedAtMs`; Date.now by default. */
  clock?: () => number;
}

export interface OutboxRepair {
  /** Bytes cut from the end of the file. */
  tornBytes: number;
  reason: string;
  /** Where the cut bytes were kept for inspection. */
  savedTo: string;
}

interface PendingAppend {
  line: string;
  record: OutboxRecord;
  resolve(record: OutboxRecord): void;
  reject(err: Error): void;
}

export class AuditOutbox {
  readonly path: string;
  /** Set when `open` cut a torn last line left by power loss. */
  readonly repair: OutboxRepair | undefined;
  #file: FileHandle;
  readonly #clock: () => number;
  /** Index of the first record in the file (the anchor after compaction; 0 before). */
  #firstIndex: number;
  /** Byte offset of each record in the file: record #firstIndex + i at #offsets[i]. */
  #offsets: number[];
  #sizeBytes: number;
  #acknowledged: number;
  /** Head of the chain including records not yet on disk. */
  #headDigest: string;
  #pending: PendingAppend[] = [];
  #flushing: Promise<void> | undefined;
  #failure: Error | undefined;
  #closed = false;
  #nextIndex: number;
  /** A compaction asked for, run by the flush loop between batches (it owns the file meanwhile). */
  #compaction: { resolve(dropped: number): void; reject(err: Error): void }[] = [];
  #compacting: Promise<number> | undefined;
  readonly #reads = new Set<Promise<unknown>>();

  private constructor(
    path: string,
    file: FileHandle,
    scan: { firstIndex: number; offsets: number[]; validBytes: number; headDigest: string },
    acknowledged: number,
    repair: OutboxRepair | undefined,
    clock: () => number,
  ) {
    this.path = path;
    this.#file = file;
    this.#firstIndex = scan.firstIndex;
    this.#offsets = scan.offsets;
    this.#nextIndex = scan.firstIndex + scan.offsets.length;
    this.#sizeBytes = scan.validBytes;
    this.#headDigest = scan.headDigest;
    this.#acknowledged = acknowledged;
    this.repair = repair;
    this.#clock = clock;
  }

  /** Opens (or creates) the outbox at `path`, checking the hash chain and cutting a torn last line. */
  static async open(path: string, options: AuditOutboxOptions = {}): Promise<AuditOutbox> {
    await mkdir(dirname(path), { recursive: true });
    let bytes: Buffer;
    let created = false;
    try {
      bytes = await readFile(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      bytes = Buffer.alloc(0);
      created = true;
    }
    const scan = scanOutbox(bytes, path);
    let repair: OutboxRepair | undefined;
    const file = await open(path, 'a+', 0o600);
    try {
      if (scan.tornBytes > 0) {
        const savedTo = `${path}.torn-${Date.now()}`;
        await writeFile(savedTo, bytes.subarray(scan.validBytes), { mode: 0o600, flush: true });
        await file.truncate(scan.validBytes);
        await file.sync();
        repair = { tornBytes: scan.tornBytes, reason: scan.tornReason ?? 'damaged', savedTo };
      }
      if (created || repair) await syncDirectory(dirname(path));
      // a compaction that crashed before its rename left this behind; the outbox itself is intact
      await rm(`${path}.compact`, { force: true });
      const acknowledged = await readAckCursor(`${path}.cursor`);
      const total = scan.firstIndex + scan.offsets.length;
      if (acknowledged > total) {
        throw new EdgeRuntimeError(
          'OUTBOX_CORRUPT',
          `audit outbox ${path}: the cursor says ${acknowledged} records were forwarded, but the file holds ` +
            `${total}; the file was replaced or cut, so nothing is forwarded until an operator checks it`,
        );
      }
      if (scan.firstIndex > 0 && scan.firstIndex >= acknowledged) {
        throw new EdgeRuntimeError(
          'OUTBOX_CORRUPT',
          `audit outbox ${path}: the file starts at record ${scan.firstIndex}, but the cloud acknowledged only ` +
            `${acknowledged}; records that were never shipped are missing, so nothing is forwarded until an operator checks it`,
        );
      }
      return new AuditOutbox(path, file, scan, acknowledged, repair, options.clock ?? Date.now);
    } catch (err) {
      await file.close();
      throw err;
    }
  }

  /** Records durably written since the outbox began (compacted ones included): the next record's index. */
  get count(): number {
    return this.#firstIndex + this.#offsets.length;
  }

  /** Index of the oldest record still in the file (those before it were acknowledged and compacted). */
  get firstIndex(): number {
    return this.#firstIndex;
  }

  /** Bytes of the outbox file. */
  get sizeBytes(): number {
    return this.#sizeBytes;
  }

  /** Records the forwarding sink has acknowledged. */
  get acknowledged(): number {
    return this.#acknowledged;
  }

  /**
   * Appends a verdict; resolves with its record once the record is on disk (after fdatasync), rejects
   * when the outbox cannot make it durable.
   */
  append(verdict: VerdictEvent): Promise<OutboxRecord> {
    if (this.#closed)
      return Promise.reject(new EdgeRuntimeError('OUTBOX_CLOSED', `audit outbox ${this.path} is closed`));
    if (this.#failure) return Promise.reject(this.#failure);
    // One counter, advanced here and nowhere else: indexes follow the order of append() calls, including
    // appends made while an earlier batch is still being written (its records are in neither #offsets nor
    // #pending then, so counting those would hand the same index out twice).
    const index = this.#nextIndex;
    let record: OutboxRecord;
    let line: string;
    try {
      record = makeRecord(index, this.#clock(), this.#headDigest, verdict);
      line = encodeRecord(record);
    } catch (err) {
      // nothing written and no index taken: a record that cannot be encoded must not leave a gap in the chain
      return Promise.reject(err);
    }
    this.#nextIndex++;
    this.#headDigest = lineDigest(line);
    return new Promise((resolve, reject) => {
      this.#pending.push({ line, record, resolve, reject });
      // Start a batch after the current synchronous run, so appends made together share one fsync.
      if (!this.#flushing) this.#flushing = Promise.resolve().then(() => this.#flushLoop());
    });
  }

  /** Resolves when every append made so far is on disk (or has failed). */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
  }

  async #flushLoop(): Promise<void> {
    try {
      while (this.#pending.length > 0 || this.#compaction.length > 0) {
        if (this.#pending.length > 0) {
          const batch = this.#pending;
          this.#pending = [];
          await this.#writeBatch(batch);
        } else {
          const waiting = this.#compaction;
          this.#compaction = [];
          this.#compacting = this.#compactNow();
          await this.#compacting.then(
            (dropped) => {
              for (const w of waiting) w.resolve(dropped);
            },
            (err: Error) => {
              for (const w of waiting) w.reject(err);
            },
          );
          this.#compacting = undefined;
        }
      }
    } finally {
      this.#flushing = undefined;
    }
  }

  /**
   * Drops the records the cloud acknowledged from the file, keeping the last of them as the chain's anchor.
   * Runs between append batches (appends wait for it, as they wait for an fsync); resolves with how many
   * records were dropped.
   */
  compact(): Promise<number> {
    if (this.#closed)
      return Promise.reject(new EdgeRuntimeError('OUTBOX_CLOSED', `audit outbox ${this.path} is closed`));
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => {
      this.#compaction.push({ resolve, reject });
      if (!this.#flushing) this.#flushing = Promise.resolve().then(() => this.#flushLoop());
    });
  }

  async #compactNow(): Promise<number> {
    if (this.#failure) throw this.#failure;
    const anchor = this.#acknowledged - 1;
    const dropped = anchor - this.#firstIndex;
    if (dropped <= 0) return 0;
    await Promise.allSettled([...this.#reads]);
    const startByte = this.#offsets[dropped] as number;
    const kept = Buffer.alloc(this.#sizeBytes - startByte);
    await this.#file.read(kept, 0, kept.length, startByte);
    const next = `${this.path}.compact`;
    const file = await open(next, 'w', 0o600);
    try {
      await file.writeFile(kept);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(next, this.path);
    // From here the old file is gone: failing to reopen the new one poisons the outbox (nothing is lost,
    // the records are on disk, but this process can no longer append to them).
    try {
      await syncDirectory(dirname(this.path));
      const reopened = await open(this.path, 'a+', 0o600);
      await this.#file.close().catch(() => {});
      this.#file = reopened;
    } catch (err) {
      this.#failure ??= new EdgeRuntimeError(
        'OUTBOX_CORRUPT',
        `audit outbox ${this.path}: compacted, but could not reopen it (${(err as Error).message}); ` +
          'no further verdict is accepted until the edge restarts',
      );
      throw this.#failure;
    }
    this.#offsets = this.#offsets.slice(dropped).map((o) => o - startByte);
    this.#sizeBytes -= startByte;
    this.#firstIndex = anchor;
    return dropped;
  }

  async #writeBatch(batch: PendingAppend[]): Promise<void> {
    const text = `${batch.map((p) => p.line).join('\n')}\n`;
    const bytes = Buffer.from(text, 'utf8');
    try {
      if (this.#failure) throw this.#failure;
      let written = 0;
      while (written < bytes.length) {
        const { bytesWritten } = await this.#file.write(bytes, written, bytes.length - written);
        written += bytesWritten;
      }
      await this.#file.datasync();
    } catch (err) {
      this.#failure ??= new EdgeRuntimeError(
        'OUTBOX_CORRUPT',
        `audit outbox ${this.path}: could not make records durable (${(err as Error).message}); ` +
          'no further verdict is accepted until the edge restarts',
      );
      for (const p of batch) p.reject(this.#failure);
      return;
    }
    let offset = this.#sizeBytes;
    for (const p of batch) {
      this.#offsets.push(offset);
      offset += Buffer.byteLength(p.line, 'utf8') + 1;
      p.resolve(p.record);
    }
    this.#sizeBytes = offset;
  }

  /** Reads up to `limit` durable records starting at `fromIndex`. */
  async read(fromIndex: number, limit = 100): Promise<OutboxRecord[]> {
    if (!Number.isSafeInteger(fromIndex) || fromIndex < 0) {
      throw new EdgeRuntimeError('NODE_STATE', `outbox read: expected an index >= 0, got ${fromIndex}`);
    }
    // A compaction swaps the file and its offsets: a read waits for one under way, and a compaction waits
    // for the reads in flight (#compactNow), so a read never mixes the old file with the new offsets.
    while (this.#compacting) await this.#compacting.catch(() => 0);
    if (fromIndex < this.#firstIndex) {
      throw new EdgeRuntimeError(
        'OUTBOX_COMPACTED',
        `outbox read: records before ${this.#firstIndex} were acknowledged by the cloud and compacted; asked for ${fromIndex}`,
      );
    }
    const read = this.#readRange(fromIndex, limit);
    this.#reads.add(read);
    try {
      return await read;
    } finally {
      this.#reads.delete(read);
    }
  }

  async #readRange(fromIndex: number, limit: number): Promise<OutboxRecord[]> {
    const offsets = this.#offsets;
    const from = fromIndex - this.#firstIndex;
    const end = Math.min(offsets.length, from + Math.max(0, limit));
    if (from >= end) return [];
    const startByte = offsets[from] as number;
    const endByte = end < offsets.length ? (offsets[end] as number) : this.#sizeBytes;
    const buffer = Buffer.alloc(endByte - startByte);
    await this.#file.read(buffer, 0, buffer.length, startByte);
    const lines = buffer.toString('utf8').split('\n');
    const records: OutboxRecord[] = [];
    for (let i = from; i < end; i++) {
      records.push(decodeRecord(lines[i - from] as string, fromIndex + (i - from) + 1));
    }
    return records;
  }

  /**
   * Sends every record after the acknowledged cursor to `sink`, in batches, advancing and persisting the
   * cursor after each batch the sink accepted. A sink that throws stops forwarding; the error propagates
   * and the same records are offered again next time (at-least-once). Returns how many were forwarded.
   */
  async forward(sink: OutboxSink, options: { batchSize?: number } = {}): Promise<number> {
    const batchSize = options.batchSize ?? 100;
    let forwarded = 0;
    while (this.#acknowledged < this.count) {
      const batch = await this.read(this.#acknowledged, batchSize);
      await sink(batch);
      const next = this.#acknowledged + batch.length;
      await writeAckCursor(`${this.path}.cursor`, next);
      this.#acknowledged = next;
      forwarded += batch.length;
    }
    return forwarded;
  }

  /** Waits for pending appends, then closes the file. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.flush();
    this.#closed = true;
    try {
      await this.#file.close();
    } catch (err) {
      // A poisoned outbox may have lost its descriptor; closing it cannot make anything worse.
      if (!this.#failure) throw err;
    }
  }
}
