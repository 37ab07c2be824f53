import t from 'tap';
import {
  lastMeasuredValue,
  measureAsync,
  measureSync,
  nowNs,
  elapsedNs,
  timerOverheadNs,
} from '@pentagate/bench';

function spinUs(us: number): void {
  const start = nowNs();
  while (elapsedNs(start, nowNs()) < us * 1000) {
    // busy wait: a call that cannot take less than `us`
  }
}

t.test('measureSync records exactly `iterations` calls after the warm-up', async (t) => {
  const seen: number[] = [];
  const stats = measureSync('count', (i) => seen.push(i), { iterations: 300, warmupIterations: 20 });
  t.equal(stats.name, 'count');
  t.equal(stats.count, 300);
  t.equal(seen.length, 320, 'warm-up calls ran but were not recorded');
  t.same(seen.slice(0, 3), [0, 1, 2], 'the index counts every call');
  t.equal(seen[319], 319);
  t.equal(lastMeasuredValue(), 320, 'the return value is kept (the call is not dead code)');
});

t.test('latencies are reported in microseconds and ordered', async (t) => {
  // Each call spins at least 50 µs, so no statistic can be below 50 (a unit check, not a speed check).
  const stats = measureSync('spin', () => spinUs(50), { iterations: 40, warmupIterations: 2 });
  t.ok(stats.minUs >= 50, `min ${stats.minUs} µs`);
  t.ok(stats.p50Us <= stats.p90Us && stats.p90Us <= stats.p99Us, 'p50 <= p90 <= p99');
  t.ok(stats.p99Us <= stats.p999Us && stats.p999Us <= stats.maxUs, 'p99 <= p99.9 <= max');
  t.ok(stats.minUs <= stats.p50Us);
  t.ok(stats.opsPerSec > 0 && stats.opsPerSec <= 1e6 / 50, `ops/s ${stats.opsPerSec} cannot exceed 20,000`);
});

t.test('minTimeMs keeps measuring beyond `iterations`', async (t) => {
  const stats = measureSync('short', () => 0, { iterations: 1, warmupIterations: 0, minTimeMs: 5 });
  // The loop only stops once 5 ms have passed, however few calls that took.
  t.ok(
    stats.count / stats.opsPerSec >= 0.005,
    `${stats.count} calls over ${stats.count / stats.opsPerSec} s`,
  );
  t.ok(stats.count >= 1);
});

t.test('bad options are refused with the field and the value', async (t) => {
  t.throws(
    () => measureSync('x', () => 0, { iterations: 0 }),
    /measure x: iterations must be an integer >= 1, got 0/,
  );
  t.throws(
    () => measureSync('x', () => 0, { warmupIterations: 1.5 }),
    /warmupIterations must be an integer >= 0/,
  );
  t.throws(() => measureSync('x', () => 0, { minTimeMs: Number.NaN }), /minTimeMs must be .* got NaN/);
  await t.rejects(
    measureAsync('y', async () => 0, { iterations: -1 }),
    /measure y: iterations/,
  );
});

t.test('measureAsync awaits each call before timing the next', async (t) => {
  let inFlight = 0;
  let maxInFlight = 0;
  const stats = await measureAsync(
    'sequential',
    async () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
    },
    { iterations: 50, warmupIterations: 5 },
  );
  t.equal(stats.count, 50);
  t.equal(maxInFlight, 1, 'never two calls at once');
  t.ok(stats.p50Us > 0);
});

t.test('measureAsync stops at the first rejection', async (t) => {
  await t.rejects(
    measureAsync('fails', async (i) => {
      if (i === 3) throw new Error('call 3 failed');
    }),
    /call 3 failed/,
  );
});

t.test('the harness overhead is measured as a positive number of ns', async (t) => {
  const overhead = timerOverheadNs(1000);
  t.ok(overhead > 0 && Number.isFinite(overhead), `${overhead} ns`);
});
