/**
 * The files `pentagate edge run` reads, written for the arm fixture into `dir`: the profile, the command HMAC
 * key, the firmware manifest and a broker users file with the robot's account (robot-r1 / robot-pw).
 * One place for the tests that start a real edge run from its CLI options.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHmacKeyFile } from '@pentagate/crypto';
import { hashPassword } from '../../../src/broker/password-hash.js';
import { armFixture } from './arm-fixture.js';

/** `edgeRunFiles` in a new temporary directory, removed at the test's teardown. */
export async function tempEdgeRunFiles(t: { teardown(fn: () => unknown): void }, prefix = 'pentagate-run-') {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return edgeRunFiles(dir);
}

export async function edgeRunFiles(dir: string) {
  const fixture = armFixture();
  const profile = join(dir, 'profile.json');
  await writeFile(profile, JSON.stringify(fixture.profile));
  const hmacKey = join(dir, 'cmd.jwk');
  await writeHmacKeyFile(hmacKey, fixture.hmacKey.key);
  const firmware = join(dir, 'fw.json');
  await writeFile(firmware, JSON.stringify(fixture.firmwareManifest));
  const users = join(dir, 'users.json');
  await writeFile(
    users,
    JSON.stringify([
      {
        username: 'robot-r1',
        passwordHash: await hashPassword('robot-pw', { logN: 10, r: 8, p: 1 }),
        role: 'robot',
        robotId: 'r1',
      },
    ]),
  );
  /** The command line every test starts from: `edge run` with the profile, the key and a state directory. */
  const runArgs = ['edge', 'run', '--profile', profile, '--hmac-key', hmacKey, '--state-dir', join(dir, 's')];
  /**
   * `edge run`'s parsed options for `edgeRunOptions`, on the embedded broker (port 0) with these files and a
   * silent log; `extra` adds or replaces options.
   */
  const parsedRunArgs = (extra: Record<string, string | boolean | string[]> = {}) => ({
    options: {
      profile,
      'hmac-key': hmacKey,
      mqtt: 'embedded:0',
      'broker-users': users,
      'state-dir': join(dir, 'state'),
      firmware: [firmware],
      'log-level': 'silent',
      ...extra,
    },
    positionals: [],
  });
  return { dir, fixture, profile, hmacKey, firmware, users, runArgs, parsedRunArgs };
}
