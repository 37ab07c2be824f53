/**
 * Refusal records for floods. A refusal of a caller without a valid key, and every 429, is recorded per
 * address and window instead of one durable audit write each: the first such refusal of an address in a
 * window is written at once (a lone probe is on record before it is answered), the others are counted
 * and written as one `refusal` entry per address when the window closes (and when the server closes).
 * A flood therefore costs at most two writes per address per window, and no refusal goes unrecorded.
 * Addresses beyond `maxAddresses` in one window share one count, so memory stays bounded.
 */
import type { AuditLog } from '../audit/audit-log.js';

export interface RefusalTallyOptions {
  /** Length of a counting window (default 60 s). */
  windowMs: number;
  /** Most addresses counted apart in one window (default 10,000); the rest share the address `*`. */
  maxAddresses: number;
  nowMs: () => number;
  /** Where a failed write is reported; its counts are kept for the next window. */
  onError: (err: unknown) => void;
}

export const DEFAULT_REFUSAL_TALLY = { windowMs: 60_000, maxAddresses: 10_000 };

/** The address under which refusals beyond `maxAddresses` are counted. */
export const OTHER_ADDRESSES = '*';

interface AddressCount {
  /** Refusals counted but not yet written. */
  count: number;
  byCode: Record<string, number>;
  firstMs: number;
  lastMs: number;
}

export class RefusalTally {
  readonly #audit: AuditLog;
  readonly #options: RefusalTallyOptions;
  #counts = new Map<string, AddressCount>();
  /** Addresses whose first refusal of this window was written at once. */
  #written = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(audit: AuditLog, options: RefusalTallyOptions) {
    this.#audit = audit;
    this.#options = options;
  }

  /** Starts closing a window every `windowMs` (the timer does not keep the process alive). */
  start(): void {
    this.#timer ??= setInterval(() => void this.flush(), this.#options.windowMs);
    this.#timer.unref();
  }

  /**
   * Notes one refusal of `address`. True when it is the address's first of this window: the caller writes
   * it as a refusal entry of its own before answering. Otherwise it is counted for the window's entry.
   */
  note(address: string, code: string): boolean {
    if (!this.#written.has(address) && this.#written.size < this.#options.maxAddresses) {
      this.#written.add(address);
      return true;
    }
    const counted = this.#written.has(address) ? address : OTHER_ADDRESSES;
    this.#add(counted, {
      count: 1,
      byCode: { [code]: 1 },
      firstMs: this.#options.nowMs(),
      lastMs: this.#options.nowMs(),
    });
    return false;
  }

  /** Refusals counted and not yet written, over all addresses. */
  get pending(): number {
    let sum = 0;
    for (const c of this.#counts.values()) sum += c.count;
    return sum;
  }

  /** Closes the window: one `refusal` entry per address with counted refusals. Flushes run one at a time. */
  flush(): Promise<void> {
    const run = this.#flushing.then(() => this.#flushNow());
    this.#flushing = run;
    return run;
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  async #flushNow(): Promise<void> {
    const counts = this.#counts;
    this.#counts = new Map();
    this.#written = new Set();
    for (const [address, c] of counts) {
      try {
        await this.#audit.append({
          type: 'refusal',
          data: {
            address,
            count: c.count,
            byCode: c.byCode,
            from: new Date(c.firstMs).toISOString(),
            to: new Date(c.lastMs).toISOString(),
            message: `${c.count} further refusals of ${address === OTHER_ADDRESSES ? 'other addresses' : address} without a valid key or over the rate limit`,
          },
        });
      } catch (err) {
        // kept, not dropped: the next window's entry for this address carries these counts too
        this.#add(address, c);
        this.#options.onError(err);
      }
    }
  }

  #add(address: string, c: AddressCount): void {
    const into = this.#counts.get(address);
    if (!into) {
      this.#counts.set(address, { ...c, byCode: { ...c.byCode } });
      return;
    }
    into.count += c.count;
    for (const [code, n] of Object.entries(c.byCode)) into.byCode[code] = (into.byCode[code] ?? 0) + n;
    into.firstMs = Math.min(into.firstMs, c.firstMs);
    into.lastMs = Math.max(into.lastMs, c.lastMs);
  }
}
