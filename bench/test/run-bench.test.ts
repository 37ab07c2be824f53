import { join } from 'node:path';
import t from 'tap';
import { type BenchReport, DEFAULT_SUITES_DIR, listSuites, runBench } from '@pentagate/bench';

const fixtures = join(import.meta.dirname, 'fixtures/suites');

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s) }, out, err };
}

t.test('an unknown suite name exits 2 and lists the available suites', async (t) => {
  const { io, out, err } = capture();
  const code = await runBench(['tiny', 'no-such-suite'], io, { suitesDir: fixtures });
  t.equal(code, 2);
  t.same(out, [], 'nothing on stdout');
  const message = err.join('\n');
  t.match(message, /unknown suite "no-such-suite"; available: broken, misnamed, nonfinite, tiny/);
});

t.test('the real suites folder is listed when a name is unknown', async (t) => {
  const { io, err } = capture();
  t.equal(await runBench(['no-such-suite'], io), 2);
  t.ok(listSuites(DEFAULT_SUITES_DIR).includes('crypto'), 'the crypto suite is found in src/suites');
  t.match(err.join('\n'), /available: .*crypto/);
});

t.test('bad options and bad suite names exit 2 with the usage', async (t) => {
  for (const argv of [['--bogus'], ['--cpu', 'one'], ['../etc/passwd']]) {
    const { io, out, err } = capture();
    t.equal(await runBench(argv, io, { suitesDir: fixtures }), 2, argv.join(' '));
    t.same(out, []);
    t.ok(err.join('\n').length > 0, 'says why');
  }
});

t.test('--help prints the usage and the available suites', async (t) => {
  const { io, out } = capture();
  t.equal(await runBench(['--help'], io, { suitesDir: fixtures }), 0);
  t.match(out.join('\n'), /usage: npm run bench/);
  t.match(out.join('\n'), /Available suites: broken, misnamed, nonfinite, tiny/);
});

t.test('--json prints one object with machine, suites and prefixed figures', async (t) => {
  const { io, out, err } = capture();
  const code = await runBench(['tiny', '--json', '--quick', '--no-pin'], io, { suitesDir: fixtures });
  t.equal(code, 0);
  t.equal(out.length, 1, 'exactly one write to stdout');
  const report = JSON.parse(out[0] ?? '') as BenchReport;
  t.same(Object.keys(report).sort(), ['figures', 'machine', 'suites']);
  t.equal(report.machine.node, process.version);
  t.ok(report.machine.cores >= 1);
  t.ok(report.machine.timerOverheadNs > 0);
  const tiny = report.suites.tiny;
  t.ok(tiny);
  t.equal(tiny?.suite, 'tiny');
  t.equal(report.figures['tiny.sumArray.count'], 10, 'quick shrinks 500 iterations to the floor of 10');
  t.equal(report.figures['tiny.arrayLength.count'], 64);
  t.ok((report.figures['tiny.sumArray.p99Us'] ?? 0) > 0);
  t.match(tiny?.notes?.join('\n'), /--quick/);
  t.ok((tiny?.run?.wallMs ?? 0) > 0, 'the runner records the wall time');
  t.ok(Number.isFinite(tiny?.run?.cpuShare), 'and the CPU share');
  t.notOk(tiny?.run && 'pinnedCpu' in tiny.run, 'not pinned with --no-pin');
  t.match(err.join('\n'), /running tiny \(quick\)/, 'progress goes to stderr');
});

t.test('the table output shows rows, targets and notes', async (t) => {
  const { io, out } = capture();
  t.equal(await runBench(['tiny', '--quick', '--no-pin'], io, { suitesDir: fixtures }), 0);
  const text = out.join('\n');
  t.match(text, /machine: /);
  t.match(text, /== tiny: sums an array/);
  t.match(text, /operation\s+count\s+ops\/s\s+mean\s+p50\s+p99\s+p99\.9\s+max/);
  t.match(text, /sumArray\s+10\s/);
  t.match(text, /arrayLength\s+64/);
  t.match(text, /✓ sumArray count: 10 >= 1/);
  t.match(text, /note: fixture/);
  t.match(text, /ran \d+\.\d s wall, \d+\.\d s CPU \(\d+ % of one CPU\)/);
});

t.test('a suite that throws, is misnamed or reports NaN fails the run with exit 1', async (t) => {
  for (const [name, reason] of [
    ['broken', /the device under test is unplugged/],
    ['misnamed', /expected name "misnamed", got "other"/],
    ['nonfinite', /figure ratio\.x must be a finite number, got NaN/],
  ] as const) {
    const { io, out } = capture();
    t.equal(
      await runBench([name, 'tiny', '--json', '--quick', '--no-pin'], io, { suitesDir: fixtures }),
      1,
      name,
    );
    const report = JSON.parse(out[0] ?? '') as BenchReport;
    t.match(report.failures?.[name], reason);
    t.ok(report.suites.tiny, 'the other suite still ran');
  }
});

t.test('no suite names runs every suite in the folder', async (t) => {
  const { io, out } = capture();
  t.equal(await runBench(['--json', '--quick', '--no-pin'], io, { suitesDir: fixtures }), 1);
  const report = JSON.parse(out[0] ?? '') as BenchReport;
  t.same(Object.keys(report.suites), ['tiny']);
  t.same(Object.keys(report.failures ?? {}).sort(), ['broken', 'misnamed', 'nonfinite']);
});
