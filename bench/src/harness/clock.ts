/**
 * The benchmark clock: `process.hrtime.bigint()`, a monotonic nanosecond counter (CLOCK_MONOTONIC on
 * Linux). Wall-clock time (`Date.now()`) can jump and has millisecond resolution, so it is never used
 * for a latency sample.
 */

/** Monotonic time in nanoseconds as a bigint (exact; no float rounding). */
export function nowNs(): bigint {
  return process.hrtime.bigint();
}

/** Nanoseconds between two `nowNs()` readings as a number (exact below 2^53 ns ≈ 104 days). */
export function elapsedNs(startNs: bigint, endNs: bigint): number {
  return Number(endNs - startNs);
}
