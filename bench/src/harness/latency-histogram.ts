/**
 * Latency recording in an HDR histogram (hdr-histogram-js, pure JS build). Values are recorded in
 * integer nanoseconds with 3 significant digits: every percentile is exact to within 0.1 % of its
 * value (HdrHistogram's guarantee), at a fixed memory cost however many samples are recorded, and
 * without keeping (and later sorting) every sample.
 */
import * as hdr from 'hdr-histogram-js';
import type { LatencyStats } from './latency-stats.js';

export type LatencyHistogram = hdr.Histogram;

/** Relative precision of every reported percentile: 3 significant decimal digits. */
export const HISTOGRAM_SIGNIFICANT_DIGITS = 3;

export function createLatencyHistogram(): LatencyHistogram {
  return hdr.build({
    bitBucketSize: 64,
    autoResize: true,
    lowestDiscernibleValue: 1,
    // Auto-resizes past this; one second covers every latency measured here without a resize.
    highestTrackableValue: 1_000_000_000,
    numberOfSignificantValueDigits: HISTOGRAM_SIGNIFICANT_DIGITS,
    useWebAssembly: false,
  });
}

/**
 * Records one latency. Sub-nanosecond or negative readings cannot come from a monotonic clock but are
 * clamped to 1 ns rather than thrown away, so `count` always equals the number of calls.
 */
export function recordLatencyNs(histogram: LatencyHistogram, latencyNs: number): void {
  histogram.recordValue(latencyNs >= 1 ? Math.round(latencyNs) : 1);
}

/**
 * Summarises a histogram of nanosecond latencies. `elapsedNs` is the wall time of the loop that
 * recorded them; ops/s is `count / elapsed`.
 */
export function statsFromHistogram(
  name: string,
  histogram: LatencyHistogram,
  elapsedNs: number,
): LatencyStats {
  const count = histogram.totalCount;
  const us = (ns: number): number => ns / 1000;
  const empty = count === 0;
  const maxNs = histogram.maxValue;
  // A percentile is reported as the top of its HDR bucket (up to 0.1 % above the values in it); the
  // exact maximum is known, so no percentile is allowed above it.
  const at = (percentile: number): number => us(Math.min(histogram.getValueAtPercentile(percentile), maxNs));
  return {
    name,
    count,
    opsPerSec: elapsedNs > 0 ? count / (elapsedNs / 1e9) : 0,
    meanUs: empty ? 0 : us(histogram.mean),
    minUs: empty ? 0 : us(histogram.minNonZeroValue),
    p50Us: at(50),
    p90Us: at(90),
    p99Us: at(99),
    p999Us: at(99.9),
    maxUs: us(maxNs),
  };
}
