import t from 'tap';
import { type BenchReport, runBench } from '@pentagate/bench';

// A smoke run: the documented keys are present and every figure is a finite positive number.
// No timing thresholds here; speed is judged by `npm run bench -- crypto`, not by tests.
const LATENCY_ROWS = [
  'jcsMotorCommand',
  'hmacSha256Bare',
  'hmacSign',
  'hmacVerify',
  'acceptMotorCommand',
  'ed25519SignNode',
  'ed25519VerifyNode',
  'ed25519SignNoble',
  'ed25519VerifyNoble',
  'dsseSignStatement',
  'dsseVerify',
  'dsseVerifyNoble',
  'merkleAppend',
  'merkleRootHash',
  'merkleInclusionProof',
  'merkleInclusionVerify',
  'merkleConsistencyProof',
  'merkleConsistencyVerify',
];
const STAT_KEYS = ['count', 'opsPerSec', 'meanUs', 'minUs', 'p50Us', 'p90Us', 'p99Us', 'p999Us', 'maxUs'];

t.test('npm run bench -- crypto --quick --json reports every documented figure', async (t) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runBench(['crypto', '--quick', '--json', '--no-pin'], {
    out: (s) => out.push(s),
    err: (s) => err.push(s),
  });
  t.equal(code, 0, err.join('\n'));
  t.equal(out.length, 1, 'one JSON object on stdout');
  const report = JSON.parse(out[0] ?? '') as BenchReport;
  t.same(Object.keys(report).sort(), ['figures', 'machine', 'suites']);
  t.type(report.machine.cpuModel, 'string');
  t.ok(report.machine.cores >= 1);

  const expected = [
    ...LATENCY_ROWS.flatMap((row) => STAT_KEYS.map((k) => `crypto.${row}.${k}`)),
    'crypto.motorCommand.jcsBytes',
    'crypto.ed25519.signNobleOverNode',
    'crypto.ed25519.verifyNobleOverNode',
    'crypto.ed25519.messageBytes',
    'crypto.dsse.envelopeJsonBytes',
    'crypto.merkle.treeSize',
    'crypto.merkle.meanLeafBytes',
    'crypto.merkle.meanInclusionProofHashes',
    'crypto.merkle.meanConsistencyProofHashes',
  ];
  for (const key of expected) {
    const value = report.figures[key];
    t.ok(typeof value === 'number' && Number.isFinite(value) && value > 0, `${key} = ${value}`);
  }
  const suite = report.suites.crypto;
  t.equal(suite?.suite, 'crypto');
  t.same(
    suite?.rows.map((r) => r.name).filter((n) => LATENCY_ROWS.includes(n)),
    LATENCY_ROWS,
    'one table row per operation, in order',
  );
  t.equal(report.figures['crypto.merkle.treeSize'], 2_000, 'quick builds a 2,000-leaf tree');
  t.equal(
    report.figures['crypto.merkleAppend.count'],
    1_800,
    'append is timed from the warm-up size to the full size',
  );
  t.equal(suite?.figures['hmacSign.count'], report.figures['crypto.hmacSign.count'], 'figures are prefixed');
});
