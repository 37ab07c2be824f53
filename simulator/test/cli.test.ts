/**
 * The simulator's commands through the real CLI kit: `sim list`, bad scenario files (exit 2, every problem
 * with its path), and `pentagate demo --duration 3` as a child process against the real edge.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@pentagate/protocol';
import t from 'tap';
import { commands } from '../src/commands.js';
import { PENTAGATE_BIN, portFree } from '../src/edge/edge-process.js';
import { freePort } from '../src/runner/robot-cell.js';
import { requireEdgeCli } from './helpers/edge-cli.js';

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, commands, { out: (s) => (out += `${s}\n`), err: (s) => (err += `${s}\n`) });
  return { code, out, err };
}

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

// The demo starts the cloud, the edge and the robot as processes: on a shared 2-CPU machine that outlasts
// tap's default per-file timeout.
t.setTimeout(280_000);

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

/**
 * Starts the demo as a terminal would, the leader of its own process group, and sends SIGINT to the whole
 * group (what Ctrl-C does) once `when` matches its output.
 */
async function demoInterrupted(
  port: number,
  when: RegExp,
  { readerGoes = false, extraArgs = [] }: { readerGoes?: boolean; extraArgs?: string[] } = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }> {
  // --duration only as a cap: on a loaded machine the edge's start alone can take many seconds.
  const child = spawn(
    process.execPath,
    [PENTAGATE_BIN, 'demo', '--mqtt-port', String(port), '--duration', '90', ...extraArgs],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let signalled = false;
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (!signalled && when.test(out) && child.pid !== undefined) {
      signalled = true;
      // `demo | tee log` and Ctrl-C: the same SIGINT ends the reader, so nothing reads what follows.
      if (readerGoes) {
        child.stdout.destroy();
        child.stderr.destroy();
      }
      process.kill(-child.pid, 'SIGINT');
    }
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) =>
    child.on('exit', (c, s) => r([c, s])),
  );
  return { code, signal, out, err };
}

t.test('pentagate demo prints a signed verdict and a STOP live; Ctrl-C stops it cleanly', async (t) => {
  if (!requireEdgeCli(t)) return;
  const port = await freePort();
  const { code, out, err } = await demoInterrupted(port, /STOPPED.*RISK\.HUMAN_IN_RADIUS/, {
    extraArgs: ['--kit-dir', join(t.testdir(), 'kit')],
  });
  t.equal(code, 0, err);
  t.equal(err, '', 'nothing on stderr: the cloud and the edge did not die of the Ctrl-C beside the demo');
  t.match(out, /SIGNED\s+pick\s+seq \d+/, 'a signed verdict is printed');
  t.match(out, /STOPPED\s+\S+\s+seq \d+\s+RISK\.HUMAN_IN_RADIUS/, 'the STOP and its violation are printed');
  t.match(out, /Pentagate demo: stopping \(the edge sends a final signed STOP\)\./);
  t.match(out, /check it: npx pentagate verify kit \S+/, 'the audit kit is exported after a Ctrl-C too');
  t.match(
    out,
    /console: {4}http:\/\/127\.0\.0\.1:\d+\/console in a browser/,
    "the operator console's address",
  );
  t.match(
    out,
    /agents: {5}PENTAGATE_URL=http:\/\/127\.0\.0\.1:\d+ PENTAGATE_API_KEY=pgk_\S+ node shared\/client\/examples\/agent\.mjs/,
    "an agent builder's line: the cloud, an agent key, the example agent",
  );
  // The seconds before the first verdict are explained, in order, before the edge is up.
  t.match(out, /Pentagate demo: preparing robot \S+'s cell[\s\S]*Pentagate demo: starting the /);
  t.ok(await portFree(port), 'the edge and its broker are gone');
});

t.test(
  'Ctrl-C that also ends the reader of the output (`demo | tee`) still exports the kit and removes the keys',
  async (t) => {
    if (!requireEdgeCli(t)) return;
    const port = await freePort();
    const kitDir = join(t.testdir(), 'kit');
    const { code, signal, out } = await demoInterrupted(port, /SIGNED\s+pick/, {
      readerGoes: true,
      extraArgs: ['--kit-dir', kitDir],
    });
    t.equal(signal, null, 'the demo is not killed by its first write to the closed pipe');
    t.equal(code, 0);
    const stateDir = /cell in (\S+) \(/.exec(out)?.[1];
    t.ok(stateDir, 'the state directory was named');
    t.notOk(existsSync(stateDir ?? ''), 'the temporary keys are removed');
    t.ok(existsSync(join(kitDir, 'manifest.json')), 'the audit kit is exported with nobody reading');
    t.ok(await portFree(port), 'the edge and its broker are gone');
  },
);

t.test('Ctrl-C while the demo starts stops it without an error or a stack trace', async (t) => {
  if (!requireEdgeCli(t)) return;
  const port = await freePort();
  const { code, signal, out, err } = await demoInterrupted(port, /Pentagate demo: starting the /, {
    extraArgs: ['--kit-dir', join(t.testdir(), 'kit')],
  });
  t.equal(signal, null, 'the demo handles the signal rather than dying of it');
  t.ok(code === 0 || code === 130, `exit ${code}: a user's stop, not a failure`);
  t.equal(err, '', 'nothing on stderr');
  if (code === 130) t.match(out, /Pentagate demo: stopped before the edge was up\./);
  t.ok(await portFree(port), 'the edge and its broker are gone');
});

t.test('sim run prints a summary table or JSON and exits by the expectations', async (t) => {
  if (!requireEdgeCli(t)) return;
  const file = new URL('../scenarios/calibration-expired.yaml', import.meta.url).pathname;
  const table = await cli(['sim', 'run', file, '--fresh-edge']);
  t.equal(table.code, 0, table.err);
  t.match(table.out, /PASS\s+calibration-expired\s+mqtt\s+4\/4/);
  t.match(table.out, /1\/1 scenario\(s\) passed/);
  t.match(table.err, /\[1\/1\] calibration-expired PASS/);
  const json = await cli(['sim', 'run', file, '--json', '--no-lead-in', '--timing-floor', '0']);
  t.equal(json.code, 0, json.err);
  const [result] = JSON.parse(json.out) as {
    name: string;
    passed: boolean;
    verdicts: { outcome: string }[];
  }[];
  t.equal(result?.name, 'calibration-expired');
  t.same(
    result?.verdicts.map((v) => v.outcome),
    ['vetoed'],
    'the expired calibration vetoes the move, with the profile as written and no lead-in',
  );
  const bad = await cli(['sim', 'run', file, '--timing-floor', 'soon']);
  t.equal(bad.code, 2);
  t.match(bad.err, /--timing-floor: expected milliseconds/);
});

t.test(
  'Ctrl-C during sim run stops its edges, removes their keys and summarizes what finished',
  async (t) => {
    if (!requireEdgeCli(t)) return;
    const scenario = (name: string) => new URL(`../scenarios/${name}.yaml`, import.meta.url).pathname;
    // the run's temporary directories go here, so what it leaves behind is seen without other runs' files
    const tmp = t.testdir();
    const child = spawn(
      process.execPath,
      [PENTAGATE_BIN, 'sim', 'run', scenario('calibration-expired'), scenario('battery-reserve')],
      { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, TMPDIR: tmp } },
    );
    let out = '';
    let err = '';
    let signalled = false;
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      // Ctrl-C from the terminal, to the whole group, while the second scenario runs
      if (!signalled && /\[2\/2\] battery-reserve \[/.test(err) && child.pid !== undefined) {
        signalled = true;
        process.kill(-child.pid, 'SIGINT');
      }
    });
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    t.equal(signal, null, 'sim run handles the signal rather than dying of it');
    t.equal(code, 130, err);
    t.match(err, /pentagate sim run: stopped after 1 of 2 scenario\(s\)/);
    t.match(out, /PASS\s+calibration-expired/, 'the finished scenario is summarized');
    t.notMatch(out, /battery-reserve/, 'the scenario cut short is not reported as a result');
    t.same(
      readdirSync(tmp).filter((f) => f.startsWith('pentagate-')),
      [],
      'no state directory with generated keys is left behind',
    );
  },
);
