/**
 * A subscriber that stops reading its socket must not hold up the commands. aedes waits for a full socket to
 * drain before it finishes delivering a message, and it has a fixed number of deliveries in flight for the
 * whole broker: once a frozen subscriber holds them all, no message reaches anyone — no signed command, no
 * STOP — until the broker gives up on it (aedes' default: 60 s). Here a planner account subscribes to the
 * verdicts three times and never reads again, and floods intents so the verdicts fill its sockets; the
 * robot's next move and the STOP for a person must still arrive at once. Real broker, sockets and edge.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MotorCommand, robotTopics } from '@pentagate/protocol';
import pino from 'pino';
import t from 'tap';
import { startEmbeddedBroker } from '../../src/broker/embedded-broker.js';
import { startEdgeNode } from '../../src/node/start-edge-node.js';
import { armFixture } from '../runtime/helpers/arm-fixture.js';
import { connectClient, MessageInbox } from '../runtime/helpers/mqtt-clients.js';

const FLOOD = 3000;

/** An MQTT 3.1.1 string: two length bytes, then UTF-8. */
const str = (s: string) => {
  const b = Buffer.from(s);
  return Buffer.concat([Buffer.from([b.length >> 8, b.length & 255]), b]);
};
/** A packet: type byte, Remaining Length, body. */
function packet(type: number, body: Buffer): Buffer {
  const length: number[] = [];
  let x = body.length;
  do {
    length.push((x % 128) | (x >= 128 ? 0x80 : 0));
    x = Math.floor(x / 128);
  } while (x > 0);
  return Buffer.concat([Buffer.from([type, ...length]), body]);
}

/** Connects, subscribes to `topic` at QoS 1, waits for the SUBACK, then never reads again. */
function frozenSubscriber(port: number, clientId: string, topic: string) {
  return new Promise<import('node:net').Socket>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      const flags = Buffer.from([4, 0xc2, 0, 60]); // level 4, username + password + clean session
      socket.write(
        packet(
          0x10,
          Buffer.concat([str('MQTT'), flags, str(clientId), str('planner-r1'), str('planner-pw-6b2')]),
        ),
      );
      socket.write(packet(0x82, Buffer.concat([Buffer.from([0, 1]), str(topic), Buffer.from([1])])));
    });
    let seen = Buffer.alloc(0);
    socket.on('data', (d: Buffer) => {
      seen = Buffer.concat([seen, d]);
      if (seen.includes(0x90)) {
        socket.pause();
        socket.removeAllListeners('data');
        resolve(socket);
      }
    });
    socket.once('error', reject);
  });
}

t.test('a subscriber that stops reading does not hold up commands or STOPs', async (t) => {
  const broker = await startEmbeddedBroker({
    port: 0,
    users: [
      { username: 'edge-r1', password: 'edge-pw-6b2', role: 'edge', robotId: 'r1' },
      { username: 'robot-r1', password: 'robot-pw-6b2', role: 'robot', robotId: 'r1' },
      { username: 'planner-r1', password: 'planner-pw-6b2', role: 'planner', robotId: 'r1' },
    ],
  });
  t.teardown(() => broker.close());
  const stateDir = await mkdtemp(join(tmpdir(), 'pentagate-slow-'));
  t.teardown(() => rm(stateDir, { recursive: true, force: true }));
  const fixture = armFixture({ robotId: 'r1', fastSourceMaxAgeMs: 60_000 });
  const edge = await startEdgeNode({
    robotId: 'r1',
    gate: fixture.makeGate(),
    mqtt: { url: broker.url, username: 'edge-r1', password: 'edge-pw-6b2' },
    stateDir,
    logger: pino({ level: 'silent' }),
  });
  t.teardown(() => edge.stop());
  const topics = robotTopics('r1');
  const robot = await connectClient(broker.url, { username: 'robot-r1', password: 'robot-pw-6b2' });
  t.teardown(() => robot.endAsync(true));
  const inbox = new MessageInbox(robot);
  await robot.subscribeAsync(topics.cmd, { qos: 1 });
  const publish = (topic: string, body: unknown) =>
    robot.publishAsync(topic, JSON.stringify(body), { qos: 1 });
  for (const frame of fixture.passingFrames(1, Date.now()))
    await publish(topics.telemetry(frame.source), frame);

  for (let i = 0; i < 3; i++) {
    const socket = await frozenSubscriber(broker.port, `planner-r1-frozen${i}`, topics.verdict);
    t.teardown(() => socket.destroy());
  }
  const planner = await connectClient(broker.url, { username: 'planner-r1', password: 'planner-pw-6b2' });
  t.teardown(() => planner.endAsync(true));
  // Vetoed intents (no energy allocation for their class): a verdict of about 2 KB each to the frozen sockets.
  for (let i = 0; i < FLOOD; i++) {
    const intent = { ...fixture.smallMove(`flood-${i}`), moveClass: 'no-such-class' };
    planner.publish(topics.intent, JSON.stringify(intent), { qos: 0 });
  }
  for (let i = 0; i < 2000 && edge.outbox.count < FLOOD; i++) await new Promise((r) => setTimeout(r, 10));

  const sentAt = Date.now();
  await publish(topics.intent, fixture.smallMove('after-flood', 100));
  const move = await inbox.next<MotorCommand>(topics.cmd, (c) => c.intentId === 'after-flood', 5_000);
  t.ok(Date.now() - sentAt < 5_000, 'the move is signed and delivered');
  const personAt = Date.now();
  await publish(topics.telemetry('proximity'), fixture.proximityFrame(2, Date.now(), 0.3));
  await inbox.next<MotorCommand>(topics.cmd, (c) => c.setpoints.kind === 'stop' && c.seq > move.seq, 2_000);
  t.ok(Date.now() - personAt < 2_000, 'the STOP for the person arrives');
});
