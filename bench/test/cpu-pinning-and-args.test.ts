import { execFileSync } from 'node:child_process';
import t from 'tap';
import {
  createSuiteContext,
  currentCpuList,
  formatMicros,
  parseBenchArgs,
  parseCpuList,
  pinToOneCore,
  quickOptions,
  target,
} from '@pentagate/bench';

const hasTaskset = currentCpuList() !== undefined;

t.test('CPU lists expand ranges and singles', async (t) => {
  t.same(parseCpuList('0-3'), [0, 1, 2, 3]);
  t.same(parseCpuList('0,2,5-6'), [0, 2, 5, 6]);
  t.same(parseCpuList('7'), [7]);
  t.same(parseCpuList(''), []);
});

t.test(
  'pinning moves every thread to one CPU and restore puts the old list back',
  { skip: !hasTaskset && 'no taskset' },
  async (t) => {
    const before = currentCpuList();
    const pin = pinToOneCore();
    t.ok(pin.pinned, pin.how);
    t.equal(currentCpuList(), String(pin.cpu));
    // Every thread, not just the main one (V8 and libuv threads too): read one thread's mask from /proc.
    const threads = execFileSync('ls', [`/proc/${process.pid}/task`], { encoding: 'utf8' })
      .trim()
      .split('\n');
    t.ok(threads.length > 1, 'node runs several threads');
    for (const tid of threads) t.equal(currentCpuList(Number(tid)), String(pin.cpu), `thread ${tid}`);
    pin.restore();
    pin.restore(); // idempotent
    t.equal(currentCpuList(), before);
  },
);

t.test(
  'a CPU outside the allowed list is refused, not forced',
  { skip: !hasTaskset && 'no taskset' },
  async (t) => {
    const pin = pinToOneCore(100_000);
    t.notOk(pin.pinned);
    t.match(pin.how, /not pinned: CPU 100000 is not in this process's CPU list/);
    pin.restore();
  },
);

t.test('--no-pin makes the context never pin, and release undoes a pin', async (t) => {
  const log = () => {};
  const off = createSuiteContext({ quick: false, pin: false, log });
  const p = off.ctx.pinToOneCore();
  t.notOk(p.pinned);
  t.equal(p.how, 'not pinned: --no-pin');
  off.release();
  if (hasTaskset) {
    const before = currentCpuList();
    const on = createSuiteContext({ quick: false, pin: true, log });
    t.ok(on.ctx.pinToOneCore().pinned);
    on.release();
    t.equal(currentCpuList(), before, 'released');
  }
});

t.test('--quick shrinks counts by 50 with floors, sizes too', async (t) => {
  t.same(quickOptions({ iterations: 20_000 }), { iterations: 400, warmupIterations: 8, minTimeMs: 0 });
  t.same(quickOptions({ iterations: 100, warmupIterations: 0, minTimeMs: 500 }), {
    iterations: 10,
    warmupIterations: 2,
    minTimeMs: 0,
  });
  const quick = createSuiteContext({ quick: true, pin: false, log: () => {} }).ctx;
  t.equal(quick.size(100_000), 2_000);
  t.equal(quick.size(100_000, 500), 500);
  t.equal(quick.size(10), 1);
  const full = createSuiteContext({ quick: false, pin: false, log: () => {} }).ctx;
  t.equal(full.size(100_000, 500), 100_000);
  t.equal(full.measureSync('x', () => 0, { iterations: 30, warmupIterations: 0 }).count, 30);
  t.equal((await quick.measureAsync('y', async () => 0, { iterations: 1000 })).count, 20);
});

t.test('bench arguments', async (t) => {
  t.same(parseBenchArgs([]), { suites: [], json: false, quick: false, pin: true, help: false });
  t.same(parseBenchArgs(['edge', 'crypto', 'edge', '--json', '--quick', '--no-pin', '--cpu', '0']), {
    suites: ['edge', 'crypto'],
    json: true,
    quick: true,
    pin: false,
    cpu: 0,
    help: false,
  });
  t.equal(parseBenchArgs(['-h']).help, true);
  t.throws(() => parseBenchArgs(['--cpu=-1']), /--cpu expects a CPU number such as 1, got "-1"/);
  t.throws(() => parseBenchArgs(['--cpu', '1.5']), /got "1\.5"/);
  t.throws(() => parseBenchArgs(['--cpu', '-1']), /argument is ambiguous/);
  t.throws(() => parseBenchArgs(['Crypto']), /expected a suite name .* got "Crypto"/);
  t.throws(() => parseBenchArgs(['--verbose']), { code: 'USAGE' });
  t.throws(
    () => parseBenchArgs(['crypto', '--quik']),
    /^unknown option '--quik'; the options are --json, --quick, --no-pin, --cpu N, --help\nusage: npm run bench/,
  );
  try {
    parseBenchArgs(['--quik']);
  } catch (error) {
    t.notMatch((error as Error).message, /positional argument/, "not node:util's hint about '-' positionals");
  }
});

t.test('targets compute met; NaN never meets a target', async (t) => {
  t.same(target('p99', 80, '<=', 100, 'µs'), {
    name: 'p99',
    actual: 80,
    limit: 100,
    comparison: '<=',
    met: true,
    unit: 'µs',
  });
  t.equal(target('p99', 120, '<=', 100).met, false);
  t.equal(target('ratio', 0.3, '>=', 0.3).met, true);
  t.equal(target('ratio', Number.NaN, '>=', 0).met, false);
  t.notOk('unit' in target('x', 1, '<=', 2));
});

t.test('latencies print in a readable unit', async (t) => {
  t.equal(formatMicros(0.045), '45 ns');
  t.equal(formatMicros(2.345), '2.35 µs');
  t.equal(formatMicros(45.67), '45.7 µs');
  t.equal(formatMicros(456.7), '457 µs');
  t.equal(formatMicros(4567), '4.57 ms');
  t.equal(formatMicros(45_670), '45.7 ms');
  t.equal(formatMicros(4_567_000), '4.57 s');
  t.equal(formatMicros(Number.POSITIVE_INFINITY), 'Infinity');
});
