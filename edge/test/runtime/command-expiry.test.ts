/**
 * A signed command is never put on the wire after its validUntil: the MQTT transport checks the clock when
 * it gets the command, counts the refusal in /metrics, and does not queue commands while disconnected.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { type MotorCommand, robotTopics, type VerdictEvent } from '@pentagate/protocol';
import { startEmbeddedBroker } from '../../src/broker/embedded-broker.js';
import { MqttTransport } from '../../src/mqtt/mqtt-transport.js';
import { startEdgeNode } from '../../src/node/start-edge-node.js';
import { createEdgeLogger } from '../../src/observability/logger.js';
import { armFixture } from './helpers/arm-fixture.js';
import { connectClient, MessageInbox } from './helpers/mqtt-clients.js';

const USERS = [
  { username: 'edge-r1', password: 'edge-pw', role: 'edge' as const, robotId: 'r1' },
  { username: 'robot-r1', password: 'robot-pw', role: 'robot' as const, robotId: 'r1' },
];

t.test(
  'an intent whose command expires before publishing: signed verdict, no command, counted',
  async (t) => {
    const broker = await startEmbeddedBroker({ port: 0, users: USERS });
    t.teardown(() => broker.close());
    const stateDir = await mkdtemp(join(tmpdir(), 'pentagate-expiry-'));
    t.teardown(() => rm(stateDir, { recursive: true, force: true }));
    const fixture = armFixture({ robotId: 'r1' });
    const topics = robotTopics('r1');
    const edge = await startEdgeNode({
      robotId: 'r1',
      gate: fixture.makeGate(),
      // The transport's clock runs a minute ahead of the gate's: every command it gets is already expired,
      // as when it waited a minute behind a starved event loop.
      mqtt: { url: broker.url, username: 'edge-r1', password: 'edge-pw', clock: () => Date.now() + 60_000 },
      stateDir,
      logger: createEdgeLogger({ level: 'silent' }),
      metricsPort: 0,
    });
    t.teardown(() => edge.stop('test over'));
    const robot = await connectClient(broker.url, { username: 'robot-r1', password: 'robot-pw' });
    t.teardown(() => robot.endAsync(true));
    const inbox = new MessageInbox(robot);
    const commands: MotorCommand[] = [];
    robot.on(
      'message',
      (topic, payload) => topic === topics.cmd && commands.push(JSON.parse(payload.toString())),
    );
    await robot.subscribeAsync([topics.cmd, topics.verdict], { qos: 1 });
    for (const frame of fixture.passingFrames(1, Date.now())) {
      await robot.publishAsync(topics.telemetry(frame.source), JSON.stringify(frame), { qos: 1 });
    }
    await robot.publishAsync(topics.intent, JSON.stringify(fixture.smallMove('late-1')), { qos: 1 });
    const verdict = await inbox.next<VerdictEvent>(topics.verdict, (v) => v.intentId === 'late-1');
    t.equal(verdict.outcome, 'signed', 'the gate signed it');
    await edge.node.settled();
    const metrics = await (await fetch(`${edge.observability?.url}/metrics`)).text();
    t.match(metrics, /pentagate_edge_commands_expired_total\{kind="motion"\} 1/);
    // Barrier: a message sent on the robot's own connection after the node settled comes back after
    // anything the edge had published before it.
    await robot.publishAsync(topics.intent, '{}', { qos: 1 });
    await inbox.next<VerdictEvent>(topics.verdict, (v) => v.outcome === 'rejected-input');
    t.same(commands, [], 'no command reached the controller');
  },
);

t.test('the transport refuses an expired command and one sent while disconnected', async (t) => {
  const broker = await startEmbeddedBroker({ port: 0, users: USERS });
  t.teardown(() => broker.close());
  let nowMs = 1_000_000;
  const expired: number[] = [];
  const transport = await MqttTransport.connect({
    url: broker.url,
    robotId: 'r1',
    username: 'edge-r1',
    password: 'edge-pw',
    reconnectPeriodMs: 50,
    clock: () => nowMs,
    onCommandExpired: (_c, lateMs) => expired.push(lateMs),
  });
  t.teardown(() => transport.close());
  const robot = await connectClient(broker.url, { username: 'robot-r1', password: 'robot-pw' });
  t.teardown(() => robot.endAsync(true));
  const inbox = new MessageInbox(robot);
  await robot.subscribeAsync('pentagate/v1/r1/cmd', { qos: 1 });
  const command = (seq: number, validUntil: number) =>
    ({ seq, validUntil, setpoints: { kind: 'stop' } }) as unknown as MotorCommand;

  await transport.publishCommand(command(1, nowMs));
  t.equal((await inbox.next<MotorCommand>('pentagate/v1/r1/cmd')).seq, 1, 'valid through validUntil');
  nowMs += 1;
  await t.rejects(transport.publishCommand(command(2, nowMs - 1)), { code: 'COMMAND_EXPIRED' });
  t.same(expired, [1], 'reported 1 ms late');
  await transport.publishCommand(command(3, nowMs + 100));
  t.equal((await inbox.next<MotorCommand>('pentagate/v1/r1/cmd')).seq, 3, 'seq 2 never arrived before seq 3');
  await broker.close();
  for (let i = 0; i < 200 && transport.isConnected(); i++) await new Promise((r) => setTimeout(r, 10));
  await t.rejects(transport.publishCommand(command(4, nowMs + 100_000)), { code: 'TRANSPORT_CLOSED' });
});
