/**
 * Store-and-forward, the edge's half: ships the hash-chained audit outbox to the cloud in batches, in
 * order, beside the gate and never in its way — the gate appends to the outbox and publishes; this loop
 * only reads what is already durable (positional reads of the same file) and runs on timers, so nothing
 * the gate does ever waits for the cloud.
 *
 * Resuming: when the link comes up the shipper asks the cloud where its copy of the chain ends and ships
 * from there, so after a crash of either side (an edge killed between the cloud's acknowledgement and its
 * own cursor write; a cloud restored from an older backup) it resumes where the cloud's acknowledgement
 * says. The outbox's own cursor follows the cloud's acknowledgements (it marks what may be compacted).
 * Delivery is at-least-once; the cloud keeps each (robot, index, digest) once.
 *
 * A link that drops is retried with exponential backoff (250 ms doubling to `retryMaxMs`); records keep
 * accumulating in the outbox meanwhile, for as long as the disk holds them. A refusal that retrying cannot
 * fix (a broken chain, a revoked key) turns the link state to `refused` and is logged; the shipper keeps
 * trying at the slowest pace, so a fixed registry resumes shipping by itself.
 */
import type { EdgeAuditRecord } from '@pentagate/protocol';
import type { Logger } from 'pino';
import { type CloudLink, type ChainRefusal, UplinkError } from './cloud-link.js';
import type { LinkState, UplinkMetrics } from './uplink-metrics.js';

/** What the shipper needs of the audit outbox: its reader API and the forwarding cursor. */
export interface ShippableOutbox {
  readonly count: number;
  readonly acknowledged: number;
  /** The oldest record still held (those before were acknowledged and compacted). */
  readonly firstIndex: number;
  /** Drops acknowledged records, keeping the chain's anchor; resolves with how many were dropped. */
  compact(): Promise<number>;
  read(fromIndex: number, limit?: number): Promise<EdgeAuditRecord[]>;
  forward(
    sink: (records: readonly EdgeAuditRecord[]) => Promise<void>,
    options?: { batchSize?: number },
  ): Promise<number>;
}

export interface AuditShipperOptions {
  outbox: ShippableOutbox;
  link: CloudLink;
  metrics: UplinkMetrics;
  logger: Logger;
  /** Records per upload (default 100, at most 500). */
  batchSize?: number;
  /** How often to look for new records while idle (default 250 ms). */
  pollMs?: number;
  /** Longest wait between retries while the cloud is unreachable (default 5 s). */
  retryMaxMs?: number;
  /**
   * Compact the outbox once this many acknowledged records have piled up in it (default 10,000; 0 never):
   * the cloud holds them in its verified log, the robot's disk need not.
   */
  compactAfterRecords?: number;
  /** Called with each acknowledgement of the cloud (how many of the robot's records it holds). */
  onAcknowledged?: (acknowledged: number) => void;
}

const RETRY_MIN_MS = 250;

export class AuditShipper {
  readonly #outbox: ShippableOutbox;
  readonly #link: CloudLink;
  readonly #metrics: UplinkMetrics;
  readonly #log: Logger;
  readonly #batchSize: number;
  readonly #pollMs: number;
  readonly #retryMaxMs: number;
  readonly #compactAfterRecords: number;
  readonly #onAcknowledged: ((acknowledged: number) => void) | undefined;
  readonly #stop = new AbortController();
  #state: LinkState = 'connecting';
  /** The cloud's last acknowledgement; undefined until the link has come up. */
  #cloudAcknowledged: number | undefined;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  constructor(options: AuditShipperOptions) {
    this.#outbox = options.outbox;
    this.#link = options.link;
    this.#metrics = options.metrics;
    this.#log = options.logger;
    this.#batchSize = Math.min(500, Math.max(1, options.batchSize ?? 100));
    this.#pollMs = options.pollMs ?? 250;
    this.#retryMaxMs = options.retryMaxMs ?? 5000;
    this.#compactAfterRecords = options.compactAfterRecords ?? 10_000;
    this.#onAcknowledged = options.onAcknowledged;
  }

  get state(): LinkState {
    return this.#state;
  }

  /** Records the cloud holds, as it last said (undefined before the first contact). */
  get cloudAcknowledged(): number | undefined {
    return this.#cloudAcknowledged;
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  /**
   * Ships everything the outbox holds now, once, without the loop (for `pentagate edge ship` on a stopped
   * edge); rejects when the cloud is unreachable or refuses. Resolves with the cloud's acknowledgement.
   */
  async drain(): Promise<number> {
    await this.#shipAvailable();
    return this.#cloudAcknowledged as number;
  }

  /** Ships what is there now without waiting for the poll timer (tests, shutdown). */
  nudge(): void {
    this.#wake?.();
  }

  /** Stops after the exchange in flight is cut off; nothing is lost (the outbox keeps the records). */
  async stop(): Promise<void> {
    this.#stop.abort();
    this.#wake?.();
    await this.#loop;
  }

  async #run(): Promise<void> {
    let retryMs = RETRY_MIN_MS;
    while (!this.#stop.signal.aborted) {
      try {
        await this.#shipAvailable();
        retryMs = RETRY_MIN_MS;
        await this.#sleep(this.#pollMs);
      } catch (err) {
        if (this.#stop.signal.aborted) break;
        this.#onFailure(err);
        await this.#sleep(this.#state === 'refused' ? this.#retryMaxMs : retryMs);
        retryMs = Math.min(this.#retryMaxMs, retryMs * 2);
      }
    }
  }

  /** Ships every durable record the cloud lacks. */
  async #shipAvailable(): Promise<void> {
    if (this.#cloudAcknowledged === undefined) {
      const ack = await this.#link.ack(this.#stop.signal);
      this.#acknowledge(ack.acknowledged);
      this.#setState('up');
      this.#log.info(
        { cloud: this.#link.url, acknowledged: ack.acknowledged, outbox: this.#outbox.count },
        'uplink: resuming where the cloud acknowledged',
      );
    }
    // Records the cloud lost (restored from an older backup) lie below the local cursor: resend them by reading.
    while ((this.#cloudAcknowledged as number) < this.#outbox.acknowledged) {
      const batch = await this.#outbox.read(this.#cloudAcknowledged as number, this.#batchSize);
      if (batch.length === 0) break;
      await this.#send(batch);
    }
    await this.#outbox.forward((batch) => this.#sendUnacknowledged(batch), { batchSize: this.#batchSize });
    this.#metrics.setChain(this.#outbox.count, this.#cloudAcknowledged as number);
    const compactable = this.#outbox.acknowledged - 1 - this.#outbox.firstIndex;
    if (this.#compactAfterRecords > 0 && compactable >= this.#compactAfterRecords) {
      const dropped = await this.#outbox.compact();
      this.#log.info(
        { dropped, firstIndex: this.#outbox.firstIndex, acknowledged: this.#outbox.acknowledged },
        'uplink: compacted the outbox (records the cloud acknowledged)',
      );
    }
  }

  /** The forward sink: sends the part of the batch the cloud lacks; resolves once the cloud holds all of it. */
  async #sendUnacknowledged(batch: readonly EdgeAuditRecord[]): Promise<void> {
    const fresh = batch.filter((r) => r.index >= (this.#cloudAcknowledged as number));
    if (fresh.length > 0) await this.#send(fresh);
    const last = batch.at(-1);
    if (last && (this.#cloudAcknowledged as number) <= last.index) {
      throw new UplinkError(
        'CLOUD_DIVERGED',
        `the cloud acknowledged ${this.#cloudAcknowledged} records after a batch up to ${last.index}`,
      );
    }
  }

  async #send(records: readonly EdgeAuditRecord[]): Promise<void> {
    try {
      const ack = await this.#link.ship(records, this.#stop.signal);
      this.#metrics.recordShipped(ack.stored ?? 0);
      this.#acknowledge(ack.acknowledged);
      this.#setState('up');
    } catch (err) {
      const refusal = err instanceof UplinkError ? (err.details as ChainRefusal | undefined) : undefined;
      if (refusal?.code === 'EDGE_CHAIN_GAP' && refusal.acknowledged !== undefined) {
        // the cloud holds less (or more) than we thought: resume exactly where it says
        this.#acknowledge(refusal.acknowledged);
      }
      throw err;
    }
  }

  #acknowledge(acknowledged: number): void {
    // The cloud cannot hold more of this robot's chain than this edge wrote. If it says it does, its chain is
    // another one (an edge re-imaged with the robot's key, a state directory restored from an old backup, the
    // wrong cloud): taking the count would mark records it never stored as shipped, and they would be lost.
    if (acknowledged > this.#outbox.count) {
      throw new UplinkError(
        'CLOUD_AHEAD',
        `the cloud says it holds ${acknowledged} records of this robot's chain, but this edge has written only ` +
          `${this.#outbox.count}: it holds another chain (an edge re-imaged with this robot's key, a state ` +
          'directory restored from an older backup, or another cloud). Nothing is marked shipped; reconcile the ' +
          'two (retire the robot and register it afresh, or restore the newer state directory)',
      );
    }
    this.#cloudAcknowledged = acknowledged;
    this.#metrics.setChain(this.#outbox.count, acknowledged);
    this.#onAcknowledged?.(acknowledged);
  }

  #onFailure(err: unknown): void {
    const code = err instanceof UplinkError ? err.code : 'UPLINK_FAULT';
    this.#metrics.recordFailure(code);
    const refusal = err instanceof UplinkError ? (err.details as ChainRefusal | undefined) : undefined;
    if (refusal?.code === 'EDGE_CHAIN_GAP') {
      this.#log.warn(
        { acknowledged: this.#cloudAcknowledged, detail: refusal.message },
        'uplink: the cloud holds another part of the chain; resuming there',
      );
      return;
    }
    // The cloud asking again for records this edge already compacted (a cloud restored from an old backup)
    // cannot be fixed by retrying either: an operator restores them from the cloud's backup or exports.
    const refused =
      (err instanceof UplinkError && (err.code === 'CLOUD_REFUSED' || err.code === 'CLOUD_AHEAD')) ||
      (err as { code?: string } | undefined)?.code === 'OUTBOX_COMPACTED';
    // re-ask the cloud where its chain ends once the link is back
    if (!refused) this.#cloudAcknowledged = undefined;
    const next: LinkState = refused ? 'refused' : 'down';
    if (this.#state !== next) {
      this.#log[refused ? 'error' : 'warn'](
        { err: (err as Error).message },
        refused
          ? 'uplink: the cloud refused the records'
          : 'uplink: cloud unreachable; records wait in the outbox',
      );
    }
    this.#setState(next);
  }

  #setState(state: LinkState): void {
    this.#state = state;
    this.#metrics.setState(state);
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
  }
}
