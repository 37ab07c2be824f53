/**
 * `pentagate demo` as a child process against the real edge, stopped by a terminal's Ctrl-C: once a signed
 * verdict and a STOP are printed, and while it is still starting.
 */
import { join } from 'node:path';
import t from 'tap';
import { portFree } from '../src/edge/edge-process.js';
import { freePort } from '../src/runner/robot-cell.js';
import { demoInterrupted } from './helpers/cli-process.js';
import { requireEdgeCli } from './helpers/edge-cli.js';

// The demo starts the cloud, the edge and the robot as processes: on a shared 2-CPU machine (CI runs two test
// files at once) one demo can take a minute, past tap's default per-file timeout.
t.setTimeout(240_000);

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
  t.match(
    out,
    /check it: npx pentagate verify kit (\S+) --trust \1-trust\.json/,
    'the audit kit and the trust file are exported after a Ctrl-C too',
  );
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
