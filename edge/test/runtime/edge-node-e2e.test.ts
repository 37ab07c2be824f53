import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startEmbeddedBroker } from '../../src/broker/embedded-broker.js';
import { runEndToEndScenario } from './helpers/e2e-scenario.js';

async function tempDir(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-e2e-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function mosquittoListening(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: 1883 });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
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

const mosquittoUp = await mosquittoListening();
const mustHaveMosquitto = process.env.CI === 'true';

t.test(
  'end to end over the machine’s Mosquitto at 127.0.0.1:1883',
  {
    skip:
      mosquittoUp || mustHaveMosquitto
        ? false
        : 'no Mosquitto on 127.0.0.1:1883; start it (with CI=true its absence is a failure)',
  },
  async (t) => {
    if (!mosquittoUp) {
      t.fail('CI=true but no MQTT broker listens on 127.0.0.1:1883 (Mosquitto is required in CI)');
      return;
    }
    // A robot id of its own, so parallel runs on the shared broker never see each other's messages.
    const robotId = `test-${process.pid}-${Date.now().toString(36)}`;
    await runEndToEndScenario(t, {
      url: 'mqtt://127.0.0.1:1883',
      robotId,
      edge: {},
      robot: {},
      stateDir: await tempDir(t),
    });
  },
);
