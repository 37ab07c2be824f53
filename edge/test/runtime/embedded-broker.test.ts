import { createServer } from 'node:net';
import t from 'tap';
import type { MqttClient } from 'mqtt';
import { startEmbeddedBroker } from '../../src/broker/embedded-broker.js';
import { hashPassword } from '../../src/broker/password-hash.js';
import { EdgeRuntimeError } from '../../src/node/runtime-error.js';
import {
  closedByBroker,
  connectClient,
  nextMessage,
  subscribeGranted,
  type Teardown,
} from './helpers/mqtt-clients.js';

const FAST = { logN: 10, r: 8, p: 1 };

async function startTestBroker(t: Teardown) {
  const broker = await startEmbeddedBroker({
    port: 0,
    users: [
      {
        username: 'edge-r1',
        passwordHash: await hashPassword('edge-secret', FAST),
        role: 'edge',
        robotId: 'r1',
      },
      { username: 'robot-r1', password: 'robot-secret', role: 'robot', robotId: 'r1' },
      { username: 'robot-r2', password: 'robot2-secret', role: 'robot', robotId: 'r2' },
      { username: 'ops', password: 'ops-secret', role: 'operator' },
    ],
  });
  t.teardown(() => broker.close());
  return broker;
}

function track(t: Teardown, client: MqttClient): MqttClient {
  t.teardown(() => client.endAsync(true));
  return client;
}

t.test('authentication', async (t) => {
  const broker = await startTestBroker(t);

  t.test('accepts a known user with the right password', async (t) => {
    const c = track(t, await connectClient(broker.url, { username: 'robot-r1', password: 'robot-secret' }));
    t.ok(c.connected);
  });

  t.test('refuses a wrong password with CONNACK code 4', async (t) => {
    const err = await connectClient(broker.url, { username: 'robot-r1', password: 'robot-secreT' }).catch(
      (e: Error & { code?: number }) => e,
    );
    t.match(err, { code: 4 });
  });

  t.test('refuses an unknown user and a missing username alike', async (t) => {
    for (const opts of [{ username: 'mallory', password: 'x' }, {}]) {
      const err = await connectClient(broker.url, opts).catch((e: Error & { code?: number }) => e);
      t.match(err, { code: 4 }, JSON.stringify(opts));
    }
  });

  t.test('refuses a client id that belongs to another user (no session take-over)', async (t) => {
    const edge = track(
      t,
      await connectClient(broker.url, { username: 'edge-r1', password: 'edge-secret', clientId: 'edge-r1' }),
    );
    const err = await connectClient(broker.url, {
      username: 'robot-r1',
      password: 'robot-secret',
      clientId: 'edge-r1',
    }).catch((e: Error & { code?: number }) => e);
    t.match(err, { code: 2 });
    t.ok(edge.connected, 'the edge keeps its session');
  });
});

t.test('per-robot topic rules', async (t) => {
  const broker = await startTestBroker(t);
  const edge = track(t, await connectClient(broker.url, { username: 'edge-r1', password: 'edge-secret' }));
  const robot = track(t, await connectClient(broker.url, { username: 'robot-r1', password: 'robot-secret' }));
  const ops = track(t, await connectClient(broker.url, { username: 'ops', password: 'ops-secret' }));

  t.test('a robot may subscribe under its own robot id only', async (t) => {
    t.equal(await subscribeGranted(robot, 'pentagate/v1/r1/cmd'), 1);
    t.equal(await subscribeGranted(robot, 'pentagate/v1/r1/#'), 1);
    t.equal(await subscribeGranted(robot, 'pentagate/v1/r2/cmd'), 128, 'another robot');
    t.equal(await subscribeGranted(robot, 'pentagate/v1/+/cmd'), 128, 'wildcard over robots');
    t.equal(await subscribeGranted(robot, '#'), 128, 'everything');
    t.equal(await subscribeGranted(robot, '$SYS/#'), 128, 'broker internals');
    t.ok(robot.connected, 'a refused filter leaves the connection open');
  });

  t.test('an unbound operator may watch every robot', async (t) => {
    t.equal(await subscribeGranted(ops, 'pentagate/v1/+/verdict'), 1);
    t.equal(await subscribeGranted(ops, 'pentagate/#'), 1);
    t.equal(await subscribeGranted(ops, '#'), 128);
  });

  t.test('the edge receives what the robot publishes under its own id', async (t) => {
    await subscribeGranted(edge, 'pentagate/v1/r1/intent');
    const got = nextMessage(edge, (topic) => topic === 'pentagate/v1/r1/intent');
    await robot.publishAsync('pentagate/v1/r1/intent', '{"hello":1}', { qos: 1 });
    t.equal((await got).payload.toString(), '{"hello":1}');
  });

  t.test('only the edge may publish commands and verdicts', async (t) => {
    await subscribeGranted(robot, 'pentagate/v1/r1/cmd');
    const got = nextMessage(robot, (topic) => topic === 'pentagate/v1/r1/cmd');
    await edge.publishAsync('pentagate/v1/r1/cmd', 'from-edge', { qos: 1 });
    t.equal((await got).payload.toString(), 'from-edge');

    for (const leaf of ['cmd', 'verdict']) {
      const forger = await connectClient(broker.url, { username: 'robot-r1', password: 'robot-secret' });
      const watcher = track(t, await connectClient(broker.url, { username: 'ops', password: 'ops-secret' }));
      await subscribeGranted(watcher, 'pentagate/v1/r1/#');
      const received = nextMessage(
        watcher,
        (topic) => topic.endsWith('/marker') || topic.endsWith(`/${leaf}`),
      );
      const closed = closedByBroker(forger);
      forger.publish(`pentagate/v1/r1/${leaf}`, 'forged', { qos: 0 });
      await closed;
      t.pass(`[MQTT-3.3.5-2] the broker closed the forger's connection (${leaf})`);
      // The watcher sees the marker first: the forged message was never delivered.
      await ops.publishAsync('pentagate/v1/r1/marker', 'after', { qos: 1 });
      t.equal((await received).topic, 'pentagate/v1/r1/marker', `no forged ${leaf} delivered`);
      forger.end(true);
    }
  });

  t.test('a robot may not publish under another robot id', async (t) => {
    const intruder = await connectClient(broker.url, { username: 'robot-r2', password: 'robot2-secret' });
    const watcher = track(t, await connectClient(broker.url, { username: 'ops', password: 'ops-secret' }));
    await subscribeGranted(watcher, 'pentagate/v1/r1/#');
    const received = nextMessage(watcher, (topic) => topic.startsWith('pentagate/v1/r1/'));
    const closed = closedByBroker(intruder);
    intruder.publish('pentagate/v1/r1/intent', '{}', { qos: 0 });
    await closed;
    await ops.publishAsync('pentagate/v1/r1/marker', 'after', { qos: 1 });
    t.equal((await received).topic, 'pentagate/v1/r1/marker');
    intruder.end(true);
  });

  t.test('even the edge may not retain a command', async (t) => {
    const edge2 = await connectClient(broker.url, { username: 'edge-r1', password: 'edge-secret' });
    const closed = closedByBroker(edge2);
    edge2.publish('pentagate/v1/r1/cmd', 'retained', { qos: 0, retain: true });
    await closed;
    t.pass('the broker closed the connection');
    edge2.end(true);
  });
});

t.test('a taken port yields an error that says what to do', async (t) => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
  const address = blocker.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const err = await startEmbeddedBroker({ port, users: [] }).catch((e: unknown) => e);
  t.type(err, EdgeRuntimeError);
  t.match(err, {
    code: 'PORT_IN_USE',
    message: `port ${port} is in use: pass --mqtt embedded:PORT with another port`,
  });
});
