/**
 * `pentagate sim run` through the real CLI kit against the real edge: its summary as a table and as JSON, and
 * a terminal's Ctrl-C in the middle of a run.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import t from 'tap';
import { PENTAGATE_BIN } from '../src/edge/edge-process.js';
import { cli } from './helpers/cli-process.js';
import { requireEdgeCli } from './helpers/edge-cli.js';

// Each scenario starts its own edge process; on a shared 2-CPU machine the file outlasts tap's default timeout.
t.setTimeout(240_000);

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
