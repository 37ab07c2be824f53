/**
 * measureSync / measureAsync: call a function many times, time every call with the monotonic
 * nanosecond clock and record each latency in an HDR histogram.
 *
 * Per-call harness overhead: a sample spans the end of one `process.hrtime.bigint()` call, the call
 * under test and the start of the next clock read (plus, for async, one `await`). That cost is what
 * `timerOverheadNs()` measures by timing an empty function with this same loop; it is reported
 * in the machine info, not subtracted (subtracting a median from every sample distorts the tail).
 * Recording into the histogram happens outside the timed span but inside the wall time used for
 * ops/s.
 */
import { elapsedNs, nowNs } from './clock.js';
import { collectGarbage } from './gc.js';
import { createLatencyHistogram, recordLatencyNs, statsFromHistogram } from './latency-histogram.js';
import type { LatencyStats } from './latency-stats.js';

export interface MeasureOptions {
  /** Recorded calls, at least (default 10,000). */
  iterations?: number;
  /** Unrecorded calls first, so the JIT has compiled the hot path (default iterations / 10, at least 10). */
  warmupIterations?: number;
  /** Keep calling (and recording) until this much wall time has passed too (default 0). */
  minTimeMs?: number;
}

const DEFAULT_ITERATIONS = 10_000;

interface Plan {
  iterations: number;
  warmupIterations: number;
  minTimeNs: number;
}

function plan(name: string, options: MeasureOptions): Plan {
  const iterations = options.iterations ?? DEFAULT_ITERATIONS;
  const warmupIterations = options.warmupIterations ?? Math.max(10, Math.ceil(iterations / 10));
  const minTimeMs = options.minTimeMs ?? 0;
  const checks: [string, number, number][] = [
    ['iterations', iterations, 1],
    ['warmupIterations', warmupIterations, 0],
    ['minTimeMs', minTimeMs, 0],
  ];
  for (const [field, value, min] of checks) {
    if (!Number.isFinite(value) || value < min || (field !== 'minTimeMs' && !Number.isInteger(value))) {
      throw new RangeError(`measure ${name}: ${field} must be an integer >= ${min}, got ${value}`);
    }
  }
  return { iterations, warmupIterations, minTimeNs: minTimeMs * 1e6 };
}

/** Values returned by the measured function land here so the call cannot be optimised away. */
let sink: unknown;

/** Times `fn(i)` for i = 0, 1, …; `i` counts warm-up calls too, so it is unique per call. */
export function measureSync(
  name: string,
  fn: (i: number) => unknown,
  options: MeasureOptions = {},
): LatencyStats {
  const { iterations, warmupIterations, minTimeNs } = plan(name, options);
  let i = 0;
  for (; i < warmupIterations; i++) sink = fn(i);
  collectGarbage();
  const histogram = createLatencyHistogram();
  const start = nowNs();
  let end = start;
  for (let n = 0; n < iterations || elapsedNs(start, end) < minTimeNs; n++, i++) {
    const t0 = nowNs();
    sink = fn(i);
    end = nowNs();
    recordLatencyNs(histogram, elapsedNs(t0, end));
  }
  const stats = statsFromHistogram(name, histogram, elapsedNs(start, nowNs()));
  histogram.destroy();
  return stats;
}

/** Times `await fn(i)` one call at a time (no concurrency); a rejection aborts the measurement. */
export async function measureAsync(
  name: string,
  fn: (i: number) => Promise<unknown>,
  options: MeasureOptions = {},
): Promise<LatencyStats> {
  const { iterations, warmupIterations, minTimeNs } = plan(name, options);
  let i = 0;
  for (; i < warmupIterations; i++) sink = await fn(i);
  collectGarbage();
  const histogram = createLatencyHistogram();
  const start = nowNs();
  let end = start;
  for (let n = 0; n < iterations || elapsedNs(start, end) < minTimeNs; n++, i++) {
    const t0 = nowNs();
    sink = await fn(i);
    end = nowNs();
    recordLatencyNs(histogram, elapsedNs(t0, end));
  }
  const stats = statsFromHistogram(name, histogram, elapsedNs(start, nowNs()));
  histogram.destroy();
  return stats;
}

/** The last value a measured function returned (lets a test see that the function really ran). */
export function lastMeasuredValue(): unknown {
  return sink;
}

/**
 * The harness's own cost per sample in ns: the median latency measureSync records for an empty
 * function. Anything measured here at a few hundred ns or less is dominated by it.
 */
export function timerOverheadNs(iterations = 100_000): number {
  return measureSync('timerOverhead', () => undefined, { iterations }).p50Us * 1000;
}
