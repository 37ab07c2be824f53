/**
 * Request-body bytes per API key per window, beside the request count (rate-limit.ts). Counting requests
 * alone let one key spend far more than its share: a propose of ~1 MB costs ~200 ms of CPU (validating,
 * screening, canonicalising, hashing and storing it several times over), so 600 of them a minute — within
 * the request limit — took more than a core from every other tenant. Charged as the body is parsed, after
 * the key is resolved and before any of that work; over the budget the request is refused 429 RATE_LIMITED
 * and costs nothing more. In memory per replica, like the request limit.
 */
import { ApiError } from './errors.js';

/** Default body bytes per valid API key per window: 32 full 1 MiB bodies a minute. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Keys remembered before windows that have passed are dropped. */
const PRUNE_AT_KEYS = 10_000;

interface Window {
  startMs: number;
  bytes: number;
}

export class BodyByteBudget {
  readonly #maxBytes: number;
  readonly #windowMs: number;
  readonly #windows = new Map<string, Window>();

  constructor(maxBytes: number, windowMs: number) {
    if (!(Number.isSafeInteger(maxBytes) && maxBytes > 0)) {
      throw new RangeError(`body byte budget: expected a positive integer, got ${maxBytes}`);
    }
    this.#maxBytes = maxBytes;
    this.#windowMs = windowMs;
  }

  /** Counts `bytes` on `keyId`'s window; throws RATE_LIMITED (and counts nothing) when they do not fit. */
  charge(keyId: string, bytes: number, nowMs: number): void {
    let window = this.#windows.get(keyId);
    if (window === undefined || nowMs - window.startMs >= this.#windowMs) {
      if (window === undefined && this.#windows.size >= PRUNE_AT_KEYS) this.#prune(nowMs);
      window = { startMs: nowMs, bytes: 0 };
      this.#windows.set(keyId, window);
    }
    if (window.bytes + bytes > this.#maxBytes) {
      const retryS = Math.max(1, Math.ceil((window.startMs + this.#windowMs - nowMs) / 1000));
      throw new ApiError(
        'RATE_LIMITED',
        `request bodies of this API key would exceed ${this.#maxBytes} bytes in ${this.#windowMs / 1000} s ` +
          `(${window.bytes} sent, this one ${bytes}); retry in ${retryS} s`,
      );
    }
    window.bytes += bytes;
  }

  #prune(nowMs: number): void {
    for (const [key, w] of this.#windows) if (nowMs - w.startMs >= this.#windowMs) this.#windows.delete(key);
  }
}
