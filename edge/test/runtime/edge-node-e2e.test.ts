import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startEmbeddedBroker } from '../../src/broker/embedded-broker.js';
import { runEndToEndScenario } from './helpers/e2e-scenario.js';
import { MOSQUITTO_URL, mosquittoSkip, mosquittoUp } from './helpers/machine-mosquitto.js';

async function tempDir(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-e2e-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

t.test('end to end over the embedded aedes broker', async (t) => {
  const broker = await startEmbeddedBroker({
    port: 0,
    users: [
      { username: 'edge-r1', password: 'edge-pass-7c1', role: 'edge', robotId: 'r1' },
      { username: 'robot-r1', password: 'robot-pass-2b9', role: 'robot', robotId: 'r1' },
      { username: 'ops-r1', password: 'ops-pass-5d4', role: 'operator', robotId: 'r1' },
    ],
  });
  t.teardown(() => broker.close());
  await runEndToEndScenario(t, {
    url: broker.url,
    robotId: 'r1',
    edge: { username: 'edge-r1', password: 'edge-pass-7c1' },
    robot: { username: 'robot-r1', password: 'robot-pass-2b9' },
    operator: { username: 'ops-r1', password: 'ops-pass-5d4' },
    stateDir: await tempDir(t),
  });
});

t.test('end to end over the machine’s Mosquitto at 127.0.0.1:1883', { skip: mosquittoSkip }, async (t) => {
  if (!mosquittoUp(t)) return;
  // A robot id of its own, so parallel runs on the shared broker never see each other's messages.
  const robotId = `test-${process.pid}-${Date.now().toString(36)}`;
  await runEndToEndScenario(t, {
    url: MOSQUITTO_URL,
    robotId,
    edge: {},
    robot: {},
    stateDir: await tempDir(t),
  });
});
