/**
 * The simulator's commands through the real CLI kit: `sim list`, bad scenario files (exit 2, every problem
 * with its path), and `pentagate demo` refusing a taken port. The demo and `sim run` as child processes are in
 * cli-demo*.test.ts and cli-sim-run.test.ts, so that no one file outlasts its timeout on a loaded machine.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { cli } from './helpers/cli-process.js';

t.test('sim list names every bundled scenario with its description', async (t) => {
  const { code, out } = await cli(['sim', 'list', '--json']);
  t.equal(code, 0);
  const rows = JSON.parse(out) as { name: string; covers: string[] }[];
  t.ok(rows.length >= 15, `${rows.length} scenarios`);
  const covered = new Set(rows.flatMap((r) => r.covers));
  for (const c of ['INVARIANT', 'ECONOMY', 'RISK', 'PROVENANCE', 'CONSENT'])
    t.ok(covered.has(c), `covers ${c}`);
  for (const a of [
    'attack-tamper',
    'attack-replay',
    'attack-expired',
    'attack-wrong-epoch',
    'sensor-stale',
    'sensor-dropout',
    'sensor-nan',
    'battery-drain',
    'wrong-firmware',
    'expired-calibration',
    'consent-granted',
    'consent-denied',
    'consent-late',
  ]) {
    t.ok(covered.has(a), `covers ${a}`);
  }
});

t.test('an invalid scenario is refused with exit 2 and every problem named by path', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-bad-scenario-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'bad.yaml');
  await writeFile(
    file,
    'name: bad\ndescription: x\ncovers: [RISK]\nprofile: ../nowhere.yaml\ndurationMs: 1000\ntimeline:\n  - at: 100\n    intent: { id: a, kind: joint, to: up, durationMs: 100 }\n  - at: 5000\n    batteryDrain: { toStateOfCharge: 0.1 }\nexpect: { noMotionWhile: always }\n',
  );
  const r = await cli(['sim', 'run', file]);
  t.equal(r.code, 2);
  t.match(r.err, /timeline\[0\]\.intent/);
  t.match(r.err, /expect\.noMotionWhile/);
  await writeFile(file, 'name: [unclosed\n');
  const y = await cli(['sim', 'run', file]);
  t.equal(y.code, 2);
  t.match(y.err, /YAML [A-Z_]+/);
  const missing = await cli(['sim', 'run', join(dir, 'absent.yaml')]);
  t.equal(missing.code, 2);
  t.match(
    missing.err,
    /scenario \S*absent\.yaml: no such file; `pentagate sim list` names the bundled scenarios/,
  );
  t.notMatch(missing.err, /ENOENT/, 'no raw system error');
  // a name as `sim list` prints it
  const named = await cli(['sim', 'run', 'demo-cell']);
  t.equal(named.code, 2);
  t.match(
    named.err,
    /scenario demo-cell: no such file; the bundled scenario of that name is \S*scenarios\/demo-cell\.yaml/,
  );
});

t.test('demo names the option to change when its port is taken', async (t) => {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const port = (server.address() as { port: number }).port;
  const r = await cli(['demo', '--mqtt-port', String(port), '--duration', '1']);
  t.equal(r.code, 2);
  t.match(r.err, new RegExp(`port ${port} is already in use: pass --mqtt-port`));
  const cloudTaken = await cli(['demo', '--cloud-port', String(port), '--duration', '1']);
  t.equal(cloudTaken.code, 2, 'a taken cloud port is a usage error too');
  t.match(cloudTaken.err, new RegExp(`port ${port} is already in use: pass --cloud-port with a free port`));
  const bad = await cli(['demo', '--port', 'eighty']);
  t.equal(bad.code, 2);
  t.match(bad.err, /--port: expected a TCP port/);
});
