/**
 * Checks CONNECT passwords without letting a flood of wrong ones delay the gate. scrypt is slow on
 * purpose (tens of ms and 16 MiB per check) and runs on the libuv thread pool, which the audit outbox's
 * fsync also needs; unbounded, 64 connections guessing passwords held signed commands past their
 * validUntil. So:
 *
 * - at most `maxConcurrentChecks` derivations run at once (the rest of the pool stays free for file I/O),
 *   and at most `maxQueuedChecks` wait; beyond that a CONNECT is refused at once as "server unavailable";
 * - an address that failed `freeFailures` times in a row waits `2^k · backoffBaseMs` (capped at
 *   `backoffMaxMs`) before the next check; attempts inside that window are refused without scrypt;
 * - a password already proven right is remembered (proven-passwords.ts), so a known client reconnecting,
 *   even from a throttled address, costs one HMAC.
 */
import { randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from './password-hash.js';
import { ProvenPasswords } from './proven-passwords.js';

export type PasswordCheck = 'ok' | 'bad' | 'throttled' | 'busy';

export interface PasswordCheckerOptions {
  /** scrypt derivations running at once (default 1: one pool thread; Node's pool has 4). */
  maxConcurrentChecks?: number;
  /** Derivations waiting for a slot before new ones are refused (default 16). */
  maxQueuedChecks?: number;
  /** Failures in a row an address may make before back-off starts (default 3). */
  freeFailures?: number;
  /** First back-off, ms, doubled per further failure (default 1000). */
  backoffBaseMs?: number;
  /** Longest back-off, ms (default 60000). */
  backoffMaxMs?: number;
  /**
   * Longest wait before a refusal without a derivation is answered, ms (default 2000). The CONNACK waits
   * out the address's back-off up to this, so a flooding client cannot spin on cheap refusals.
   */
  maxRefusalDelayMs?: number;
  /** Addresses remembered at most; the oldest are forgotten first (default 10000). */
  maxTrackedAddresses?: number;
  clock?: () => number;
}

interface AddressRecord {
  failures: number;
  blockedUntilMs: number;
}

export class PasswordChecker {
  readonly #hashes: ReadonlyMap<string, string>;
  readonly #dummyHash: Promise<string>;
  readonly #proven: ProvenPasswords;
  readonly #addresses = new Map<string, AddressRecord>();
  readonly #waiting: Array<() => void> = [];
  #running = 0;
  readonly #o: Required<Omit<PasswordCheckerOptions, 'clock'>>;
  readonly #clock: () => number;
  /** Counters for the log and the tests. */
  readonly stats = { checks: 0, throttled: 0, busy: 0, remembered: 0 };

  constructor(
    hashes: ReadonlyMap<string, string>,
    proven: ProvenPasswords = new ProvenPasswords(),
    options: PasswordCheckerOptions = {},
  ) {
    this.#hashes = hashes;
    this.#proven = proven;
    // Unknown usernames are derived against this, so timing does not reveal which names exist.
    this.#dummyHash = hashPassword(randomBytes(16).toString('hex'));
    this.#o = {
      maxConcurrentChecks: options.maxConcurrentChecks ?? 1,
      maxQueuedChecks: options.maxQueuedChecks ?? 16,
      freeFailures: options.freeFailures ?? 3,
      backoffBaseMs: options.backoffBaseMs ?? 1000,
      backoffMaxMs: options.backoffMaxMs ?? 60_000,
      maxTrackedAddresses: options.maxTrackedAddresses ?? 10_000,
      maxRefusalDelayMs: options.maxRefusalDelayMs ?? 2000,
    };
    this.#clock = options.clock ?? Date.now;
  }

  async check(username: string | undefined, password: string, address: string): Promise<PasswordCheck> {
    if (username !== undefined && this.#proven.matches(username, password)) {
      this.stats.remembered += 1;
      this.#addresses.delete(address);
      return 'ok';
    }
    const record = this.#addresses.get(address);
    if (record && record.blockedUntilMs > this.#clock()) {
      this.stats.throttled += 1;
      return 'throttled';
    }
    if (this.#running >= this.#o.maxConcurrentChecks && this.#waiting.length >= this.#o.maxQueuedChecks) {
      this.stats.busy += 1;
      return 'busy';
    }
    await this.#slot();
    let ok: boolean;
    try {
      this.stats.checks += 1;
      const stored = username === undefined ? undefined : this.#hashes.get(username);
      ok = await verifyPassword(password, stored ?? (await this.#dummyHash));
      ok &&= stored !== undefined;
    } finally {
      this.#release();
    }
    if (ok && username !== undefined) {
      this.#proven.remember(username, password);
      this.#addresses.delete(address);
      return 'ok';
    }
    this.#fail(address);
    return 'bad';
  }

  /**
   * How long to hold the refusal of a `throttled` or `busy` attempt before answering it: the rest of the
   * address's back-off (a queue-full refusal waits the whole maximum), capped at `maxRefusalDelayMs`.
   */
  refusalDelayMs(address: string, outcome: 'throttled' | 'busy'): number {
    const max = this.#o.maxRefusalDelayMs;
    if (outcome === 'busy') return max;
    const record = this.#addresses.get(address);
    return Math.max(0, Math.min((record?.blockedUntilMs ?? 0) - this.#clock(), max));
  }

  #fail(address: string): void {
    const record = this.#addresses.get(address) ?? { failures: 0, blockedUntilMs: 0 };
    record.failures += 1;
    const over = record.failures - this.#o.freeFailures;
    if (over >= 0) {
      const waitMs = Math.min(this.#o.backoffBaseMs * 2 ** Math.min(over, 30), this.#o.backoffMaxMs);
      record.blockedUntilMs = this.#clock() + waitMs;
    }
    // Re-insert so the Map's order is least recently failed first, then forget the oldest.
    this.#addresses.delete(address);
    this.#addresses.set(address, record);
    while (this.#addresses.size > this.#o.maxTrackedAddresses) {
      const oldest = this.#addresses.keys().next().value as string;
      this.#addresses.delete(oldest);
    }
  }

  #slot(): Promise<void> {
    if (this.#running < this.#o.maxConcurrentChecks) {
      this.#running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#running -= 1;
  }
}
