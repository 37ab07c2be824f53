/**
 * Summary statistics of one measured operation. Latencies are in microseconds (`…Us`) because
 * most operations measured here take between 1 µs and a few ms; `inMilliseconds` gives the `…Ms`
 * variant for network round trips.
 */
export interface LatencyStats {
  /** What was measured, a camelCase key such as `hmacSign` (it becomes part of the figure keys). */
  name: string;
  /** Recorded calls (warm-up calls are not counted). */
  count: number;
  /** Calls per second over the measured loop's wall time (includes the harness's per-call overhead). */
  opsPerSec: number;
  meanUs: number;
  minUs: number;
  p50Us: number;
  p90Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
}

/** The same statistics with latencies in milliseconds. */
export interface LatencyStatsMs {
  name: string;
  count: number;
  opsPerSec: number;
  meanMs: number;
  minMs: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
}

/** The statistics of a latency table, in the order a reader expects them. */
export const LATENCY_FIELDS = ['mean', 'min', 'p50', 'p90', 'p99', 'p999', 'max'] as const;
export type LatencyField = (typeof LATENCY_FIELDS)[number];

export function inMilliseconds(stats: LatencyStats): LatencyStatsMs {
  return {
    name: stats.name,
    count: stats.count,
    opsPerSec: stats.opsPerSec,
    meanMs: stats.meanUs / 1000,
    minMs: stats.minUs / 1000,
    p50Ms: stats.p50Us / 1000,
    p90Ms: stats.p90Us / 1000,
    p99Ms: stats.p99Us / 1000,
    p999Ms: stats.p999Us / 1000,
    maxMs: stats.maxUs / 1000,
  };
}

/** True for a row produced by `measureSync`/`measureAsync`/`statsFromHistogram` (not a free-form row). */
export function isLatencyStats(row: unknown): row is LatencyStats {
  if (typeof row !== 'object' || row === null) return false;
  const r = row as Record<string, unknown>;
  return (
    typeof r.name === 'string' &&
    typeof r.count === 'number' &&
    typeof r.opsPerSec === 'number' &&
    LATENCY_FIELDS.every((f) => typeof r[`${f}Us`] === 'number')
  );
}

/**
 * Flat figure keys for one row: `<name>.count`, `<name>.opsPerSec`, `<name>.p99Us` … (or `…Ms` with
 * `unit: 'ms'`), the keys the `--json` output and the issues' targets use (e.g. `trapAndSign.p99Us`).
 */
export function figuresOf(stats: LatencyStats, unit: 'us' | 'ms' = 'us'): Record<string, number> {
  const figures: Record<string, number> = {
    [`${stats.name}.count`]: stats.count,
    [`${stats.name}.opsPerSec`]: stats.opsPerSec,
  };
  const suffix = unit === 'us' ? 'Us' : 'Ms';
  const divisor = unit === 'us' ? 1 : 1000;
  for (const field of LATENCY_FIELDS) {
    figures[`${stats.name}.${field}${suffix}`] = stats[`${field}Us`] / divisor;
  }
  return figures;
}
