import t from 'tap';
import {
  HISTOGRAM_SIGNIFICANT_DIGITS,
  LatencyRecorder,
  nowNs,
  createLatencyHistogram,
  figuresOf,
  inMilliseconds,
  isLatencyStats,
  recordLatencyNs,
  statsFromHistogram,
} from '@pentagate/bench';

// HdrHistogram with 3 significant digits keeps every value within 1 part in 10^3 of itself.
const precision = 10 ** -HISTOGRAM_SIGNIFICANT_DIGITS;

function within(
  t: { ok(pass: boolean, message: string): unknown },
  actual: number,
  expected: number,
  what: string,
): void {
  t.ok(
    Math.abs(actual - expected) <= expected * precision,
    `${what}: ${actual} is within ${precision * 100}% of ${expected}`,
  );
}

t.test('percentiles of a uniform 1..100,000 ns distribution are exact within HDR precision', async (t) => {
  const h = createLatencyHistogram();
  // Shuffled order: a histogram must not care about arrival order.
  const values = Array.from({ length: 100_000 }, (_, i) => i + 1);
  for (let i = values.length - 1; i > 0; i--) {
    const j = (i * 7919) % (i + 1);
    [values[i], values[j]] = [values[j]!, values[i]!];
  }
  for (const v of values) recordLatencyNs(h, v);
  const stats = statsFromHistogram('uniform', h, 2e9);
  t.equal(stats.count, 100_000);
  t.equal(stats.opsPerSec, 50_000, '100,000 calls in 2 s');
  within(t, stats.p50Us, 50, 'p50');
  within(t, stats.p90Us, 90, 'p90');
  within(t, stats.p99Us, 99, 'p99');
  within(t, stats.p999Us, 99.9, 'p99.9');
  within(t, stats.maxUs, 100, 'max');
  within(t, stats.meanUs, 50.0005, 'mean');
  t.equal(stats.minUs, 0.001, 'min is 1 ns');
  h.destroy();
});

t.test('a heavy tail shows in p99.9 and max but not in p50', async (t) => {
  const h = createLatencyHistogram();
  for (let i = 0; i < 9_990; i++) recordLatencyNs(h, 2_000); // 2 µs
  for (let i = 0; i < 10; i++) recordLatencyNs(h, 5_000_000); // 5 ms: 0.1 % of calls
  const stats = statsFromHistogram('tail', h, 1e9);
  within(t, stats.p50Us, 2, 'p50');
  within(t, stats.p99Us, 2, 'p99');
  within(t, stats.p999Us, 2, 'p99.9 (the 99.9th percentile is the last 2 µs value)');
  within(t, stats.maxUs, 5000, 'max');
  t.ok(stats.meanUs > 6 && stats.meanUs < 7.1, `mean ${stats.meanUs} µs carries the tail`);
  h.destroy();
});

t.test(
  'values above the initial range are recorded (auto-resize), non-positive ones clamp to 1 ns',
  async (t) => {
    const h = createLatencyHistogram();
    recordLatencyNs(h, 30e9); // 30 s
    recordLatencyNs(h, 0);
    recordLatencyNs(h, -5);
    const stats = statsFromHistogram('odd', h, 1);
    t.equal(stats.count, 3);
    within(t, stats.maxUs, 30e6, 'max');
    t.equal(stats.minUs, 0.001);
    h.destroy();
  },
);

t.test('an empty histogram gives zeros, not NaN', async (t) => {
  const h = createLatencyHistogram();
  const stats = statsFromHistogram('empty', h, 0);
  for (const [k, v] of Object.entries(stats)) if (k !== 'name') t.equal(v, 0, k);
  h.destroy();
});

t.test('figures are flat keys under the row name, in µs or ms', async (t) => {
  const stats = {
    name: 'trapAndSign',
    count: 4,
    opsPerSec: 10,
    meanUs: 1500,
    minUs: 1000,
    p50Us: 1200,
    p90Us: 1800,
    p99Us: 2000,
    p999Us: 2500,
    maxUs: 3000,
  };
  t.ok(isLatencyStats(stats));
  t.notOk(isLatencyStats({ name: 'x', reqPerSec: 3 }));
  t.notOk(isLatencyStats(null));
  const us = figuresOf(stats);
  t.equal(us['trapAndSign.p99Us'], 2000);
  t.equal(us['trapAndSign.count'], 4);
  t.equal(us['trapAndSign.opsPerSec'], 10);
  t.equal(Object.keys(us).length, 9);
  const ms = figuresOf(stats, 'ms');
  t.equal(ms['trapAndSign.p99Ms'], 2);
  t.equal(ms['trapAndSign.p999Ms'], 2.5);
  t.notOk('trapAndSign.p99Us' in ms);
  const m = inMilliseconds(stats);
  t.same(m, {
    name: 'trapAndSign',
    count: 4,
    opsPerSec: 10,
    meanMs: 1.5,
    minMs: 1,
    p50Ms: 1.2,
    p90Ms: 1.8,
    p99Ms: 2,
    p999Ms: 2.5,
    maxMs: 3,
  });
});

t.test('a LatencyRecorder records externally timed latencies and can drop its warm-up', async (t) => {
  const recorder = new LatencyRecorder('roundTrip');
  recorder.recordNs(5_000_000);
  t.equal(recorder.count, 1);
  recorder.restart();
  t.equal(recorder.count, 0, 'the warm-up sample is gone');
  for (let i = 1; i <= 1000; i++) recorder.recordNs(i * 1000); // 1 µs … 1 ms
  const stats = recorder.stats();
  t.equal(stats.name, 'roundTrip');
  t.equal(stats.count, 1000);
  within(t, stats.maxUs, 1000, 'max');
  within(t, stats.p50Us, 500, 'p50');
  t.ok(stats.opsPerSec > 0);
  t.equal(figuresOf(stats, 'ms')['roundTrip.maxMs'], stats.maxUs / 1000);
});

t.test('recordSince records the time since a clock reading', async (t) => {
  const recorder = new LatencyRecorder('sinceStart');
  const twoMsAgo = nowNs() - 2_000_000n;
  const measured = recorder.recordSince(twoMsAgo);
  t.ok(measured >= 2_000_000, `${measured} ns >= 2 ms`);
  const stats = recorder.stats();
  t.equal(stats.count, 1);
  t.ok(stats.maxUs >= 2000 * (1 - precision), `${stats.maxUs} µs`);
});
