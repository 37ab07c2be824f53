/**
 * `pentagate demo | tee log` and Ctrl-C: the reader of the demo's output goes with the same signal, and the
 * demo still exports its audit kit and removes its keys.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { portFree } from '../src/edge/edge-process.js';
import { freePort } from '../src/runner/robot-cell.js';
import { demoInterrupted } from './helpers/cli-process.js';
import { requireEdgeCli } from './helpers/edge-cli.js';

// The demo starts the cloud, the edge and the robot as processes: on a shared 2-CPU machine (CI runs two test
// files at once) one demo can take a minute, past tap's default per-file timeout.
t.setTimeout(240_000);

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
