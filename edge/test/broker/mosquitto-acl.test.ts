import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { cli } from '../runtime/helpers/run-edge-cli.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

t.test('the shipped ACL is the one generated from the shipped users file (no drift)', async (t) => {
  const { code, out } = await cli(['edge', 'broker-acl', '--users', join(root, 'deploy/broker-users.json')]);
  t.equal(code, 0);
  t.equal(`${out}\n`, readFileSync(join(root, 'deploy/mosquitto.acl'), 'utf8'));
});

t.test('a bound source is written to its sensor and denied to the robot account', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-acl-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const users = join(dir, 'users.json');
  await writeFile(
    users,
    JSON.stringify([
      { username: 'lidar', role: 'sensor', robotId: 'r1', sources: ['proximity-front'] },
      { username: 'robot', role: 'robot', robotId: 'r1' },
      { username: 'watch', role: 'watcher' },
    ]),
  );
  const { code, out } = await cli(['edge', 'broker-acl', '--users', users]);
  t.equal(code, 0);
  t.match(out, 'user lidar\ntopic write pentagate/v1/r1/telemetry/proximity-front\n\n');
  t.match(
    out,
    'topic write pentagate/v1/r1/telemetry/+\ntopic deny pentagate/v1/r1/telemetry/proximity-front\n',
  );
  t.match(out, 'user watch\ntopic read pentagate/v1/+/verdict');
});

t.test('an invalid users file is a usage error naming the entry', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-acl-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const users = join(dir, 'users.json');
  await writeFile(users, JSON.stringify([{ username: 'ops', role: 'operator', sources: ['lidar'] }]));
  const { code, err } = await cli(['edge', 'broker-acl', '--users', users]);
  t.equal(code, 2);
  t.match(err, /users\[0\]: sources: role operator publishes no telemetry/);
});
