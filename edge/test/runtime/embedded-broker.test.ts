import { createServer } from 'node:net';
import t from 'tap';
import type { MqttClient } from 'mqtt';
import { startEmbeddedBroker } from '../../src/broker/embedded-broker.js';
import { hashPassword } from '../../src/broker/password-hash.js';
import { EdgeRuntimeError } from '../../src/node/runtime-error.js';
import { connectClient, type Teardown } from './helpers/mqtt-clients.js';

const FAST = { logN: 10, r: 8, p: 1 };

async function startTestBroker(t: Teardown) {
  const broker = await startEmbeddedBroker({
    port: 0,
    // These tests fail logins on purpose; the back-off after failures is tested in test/broker.
    passwordChecks: { freeFailures: 1000 },
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
      // a name that is the start of the edge's: its `edge-…` client ids must still not reach the edge's
      { username: 'edge', password: 'watch-secret', role: 'watcher' },
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

  t.test('a user whose name starts another user name gets none of its client ids', async (t) => {
    const edge = track(
      t,
      await connectClient(broker.url, {
        username: 'edge-r1',
        password: 'edge-secret',
        clientId: 'edge-r1-a1',
      }),
    );
    for (const clientId of ['edge-r1', 'edge-r1-a1']) {
      const err = await connectClient(broker.url, {
        username: 'edge',
        password: 'watch-secret',
        clientId,
      }).catch((e: Error & { code?: number }) => e);
      t.match(err, { code: 2 }, clientId);
    }
    t.ok(edge.connected, 'the edge keeps its session');
    const own = track(
      t,
      await connectClient(broker.url, { username: 'edge', password: 'watch-secret', clientId: 'edge-dash' }),
    );
    t.ok(own.connected, 'its own ids still connect');
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
