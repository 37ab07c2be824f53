/**
 * The HMAC command key is all a forger needs: the controller executes whatever carries its MAC. `edge run`
 * started on a key file any local user could read (a copy made with `cp` under the usual umask is 0644); now it
 * refuses one that group or others may read, as OpenSSH refuses an unprotected private key, and says how to fix
 * it. A key written by `pentagate keys generate` (0600) starts as before.
 */
import { chmod } from 'node:fs/promises';
import { writeHmacKeyFile } from '@pentagate/crypto';
import { join } from 'node:path';
import t from 'tap';
import { startEdgeRun } from '../../src/cli/edge-run.js';
import { edgeRunOptions } from '../../src/cli/edge-run-command.js';
import { readSensorKeys } from '../../src/telemetry/sensor-key-files.js';
import { tempEdgeRunFiles } from './helpers/edge-run-files.js';
import { cli } from './helpers/run-edge-cli.js';

async function options(f: Awaited<ReturnType<typeof tempEdgeRunFiles>>, state: string) {
  return edgeRunOptions({
    options: {
      profile: f.profile,
      'hmac-key': f.hmacKey,
      mqtt: 'embedded:0',
      'state-dir': join(f.dir, state),
      firmware: [f.firmware],
      'log-level': 'silent',
    },
    positionals: [],
  });
}

t.test('edge run refuses an HMAC key file that others can read', async (t) => {
  const f = await tempEdgeRunFiles(t, 'pentagate-keymode-');
  for (const mode of [0o644, 0o640, 0o604]) {
    await chmod(f.hmacKey, mode);
    const started = await startEdgeRun(await options(f, `s-${mode.toString(8)}`)).then(
      async (running) => {
        await running.stop();
        return 'started';
      },
      (err: Error) => err.message,
    );
    t.match(
      started,
      /cmd\.jwk: the HMAC command key is readable by group or others \(mode 06\d\d\).*chmod 600/,
      `mode ${mode.toString(8)} is refused`,
    );
  }
  await chmod(f.hmacKey, 0o644);
  const r = await cli([
    ...['edge', 'run', '--profile', f.profile, '--hmac-key', f.hmacKey],
    ...['--mqtt', 'embedded:0', '--state-dir', join(f.dir, 's-cli')],
  ]);
  t.equal(r.code, 2, 'the CLI exits 2 (bad input)');
  t.match(r.err, /readable by group or others/);
});

t.test('a key file only its owner can read starts the edge', async (t) => {
  const f = await tempEdgeRunFiles(t, 'pentagate-keymode-');
  await chmod(f.hmacKey, 0o600);
  const running = await startEdgeRun(await options(f, 's'));
  await running.stop();
  t.pass('started and stopped');
});

t.test(
  "a sensor key file others can read is refused too (its holder signs the lidar's frames)",
  async (t) => {
    const f = await tempEdgeRunFiles(t, 'pentagate-keymode-');
    const path = join(f.dir, 'lidar.key.jwk');
    await writeHmacKeyFile(path, new Uint8Array(32).fill(7));
    t.equal((await readSensorKeys(f.fixture.profile, [path])).size, 1, 'read at 0600');
    await chmod(path, 0o644);
    await t.rejects(
      readSensorKeys(f.fixture.profile, [path]),
      /the sensor HMAC key is readable by group or others/,
    );
  },
);
