import { createServer, type Socket } from 'node:net';
import t from 'tap';
import { robotTopics } from '@pentagate/protocol';
import { startEmbeddedBroker } from '../../src/broker/embedded-broker.js';
import { MqttTransport } from '../../src/mqtt/mqtt-transport.js';
import { connectClient, MessageInbox } from './helpers/mqtt-clients.js';
import { sampleVerdict } from './helpers/verdicts.js';

t.test('connects, subscribes to the robot’s inputs and publishes verdicts', async (t) => {
  const broker = await startEmbeddedBroker({
    port: 0,
    users: [
      { username: 'edge-r1', password: 'e', role: 'edge', robotId: 'r1' },
      { username: 'ops', password: 'o', role: 'operator' },
      { username: 'robot-r1', password: 'r', role: 'robot', robotId: 'r1' },
    ],
  });
  t.teardown(() => broker.close());
  const transport = await MqttTransport.connect({
    url: broker.url,
    robotId: 'r1',
    username: 'edge-r1',
    password: 'e',
  });
  t.teardown(() => transport.close());
  t.ok(transport.isConnected());
  const received: string[] = [];
  transport.onMessage((topic) => received.push(topic));
  const ops = await connectClient(broker.url, { username: 'ops', password: 'o' });
  t.teardown(() => ops.endAsync(true));
  const inbox = new MessageInbox(ops);
  await ops.subscribeAsync('pentagate/v1/r1/verdict', { qos: 1 });
  await transport.publishVerdict(sampleVerdict(1));
  t.equal((await inbox.next<{ intentId: string }>('pentagate/v1/r1/verdict')).intentId, 'intent-1');
  const topics = robotTopics('r1');
  const robot = await connectClient(broker.url, { username: 'robot-r1', password: 'r' });
  t.teardown(() => robot.endAsync(true));
  await robot.publishAsync(topics.intent, '{}', { qos: 1 });
  await robot.publishAsync(topics.telemetry('proximity'), '{}', { qos: 1 });
  await ops.publishAsync(topics.consent, '{}', { qos: 1 });
  for (let i = 0; i < 400 && received.length < 3; i++) await new Promise((r) => setTimeout(r, 5));
  t.same(received, [topics.intent, topics.telemetry('proximity'), topics.consent]);
});

t.test('a refused login is a clear error with the CONNACK code', async (t) => {
  const broker = await startEmbeddedBroker({
    port: 0,
    users: [{ username: 'edge-r1', password: 'e', role: 'edge', robotId: 'r1' }],
  });
  t.teardown(() => broker.close());
  await t.rejects(
    MqttTransport.connect({
      url: broker.url,
      robotId: 'r1',
      username: 'edge-r1',
      password: 'wrong',
      reconnectPeriodMs: 0,
    }),
    {
      code: 'MQTT_CONNECT_FAILED',
      message: new RegExp(`cannot connect to MQTT broker ${broker.url}: .*\\(CONNACK return code 4\\)`),
    },
  );
});

t.test('a refused subscription names the filter and the user', async (t) => {
  const broker = await startEmbeddedBroker({
    port: 0,
    users: [{ username: 'edge-r1', password: 'e', role: 'edge', robotId: 'r1' }],
  });
  t.teardown(() => broker.close());
  await t.rejects(
    MqttTransport.connect({ url: broker.url, robotId: 'r2', username: 'edge-r1', password: 'e' }),
    {
      code: 'MQTT_CONNECT_FAILED',
      message:
        /refused the subscriptions pentagate\/v1\/r2\/intent.*user edge-r1 may subscribe under pentagate\/v1\/r2\//,
    },
  );
});

t.test('a broker that never answers fails after the connect timeout', async (t) => {
  // A TCP server that accepts and says nothing: no CONNACK ever comes.
  const sockets: Socket[] = [];
  const silent = createServer((socket) => {
    sockets.push(socket);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    silent.close();
  });
  const address = silent.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await t.rejects(
    MqttTransport.connect({ url: `mqtt://127.0.0.1:${port}`, robotId: 'r1', connectTimeoutMs: 300 }),
    {
      code: 'MQTT_CONNECT_FAILED',
      message: /cannot connect to MQTT broker .*(connack timeout|no CONNACK within 300 ms)/,
    },
  );
});
