/**
 * Over the real embedded broker and real sockets: the broker binds a source to the one account that may
 * publish its topic (`telemetry/<source>`), so a frame must come from the topic of the source it names. The
 * robot's account, which may publish joint states but not the lidar's `proximity`, publishes a "nobody
 * present" proximity frame on its own `telemetry/joints` topic while the lidar sees a person inside the
 * radius. The frame is refused, the lidar's reading stands, and nothing is signed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasEdgeViolation, robotTopics, type VerdictEvent } from '@pentagate/protocol';
import pino from 'pino';
import t from 'tap';
import { startEmbeddedBroker } from '../../src/broker/embedded-broker.js';
import { startEdgeNode } from '../../src/node/start-edge-node.js';
import { armFixture } from './helpers/arm-fixture.js';
import { connectClient, MessageInbox } from './helpers/mqtt-clients.js';

t.test('a frame naming another source than its topic is refused', async (t) => {
  const broker = await startEmbeddedBroker({
    port: 0,
    users: [
      { username: 'edge-r1', password: 'edge-pass-5d2', role: 'edge', robotId: 'r1' },
      {
        username: 'lidar-r1',
        password: 'lidar-pass-9e4',
        role: 'sensor',
        robotId: 'r1',
        sources: ['proximity'],
      },
      { username: 'robot-r1', password: 'robot-pass-1a7', role: 'robot', robotId: 'r1' },
    ],
  });
  t.teardown(() => broker.close());
  const stateDir = await mkdtemp(join(tmpdir(), 'pentagate-topic-source-'));
  t.teardown(() => rm(stateDir, { recursive: true, force: true }));
  const fixture = armFixture({ robotId: 'r1', fastSourceMaxAgeMs: 60_000 });
  const topics = robotTopics('r1');
  const gate = fixture.makeGate();
  const edge = await startEdgeNode({
    robotId: 'r1',
    gate,
    mqtt: { url: broker.url, username: 'edge-r1', password: 'edge-pass-5d2' },
    stateDir,
    logger: pino({ level: 'silent' }),
    refusalWindowMs: 60_000,
  });
  t.teardown(() => edge.stop());
  const robot = await connectClient(broker.url, { username: 'robot-r1', password: 'robot-pass-1a7' });
  t.teardown(() => robot.endAsync(true));
  const lidar = await connectClient(broker.url, { username: 'lidar-r1', password: 'lidar-pass-9e4' });
  t.teardown(() => lidar.endAsync(true));
  const inbox = new MessageInbox(robot);
  await robot.subscribeAsync([topics.cmd, topics.verdict], { qos: 1 });
  const decide = async (intentId: string): Promise<VerdictEvent> => {
    await robot.publishAsync(topics.intent, JSON.stringify(fixture.smallMove(intentId, 100)), { qos: 1 });
    return inbox.next<VerdictEvent>(topics.verdict, (v) => v.intentId === intentId);
  };

  const now = Date.now();
  for (const frame of fixture.passingFrames(1, now)) {
    const from = frame.source === 'proximity' ? lidar : robot;
    await from.publishAsync(topics.telemetry(frame.source), JSON.stringify(frame), { qos: 1 });
  }
  t.equal((await decide('before')).outcome, 'signed', 'nobody near: the move is signed');

  // The lidar sees a person at 0.5 m, inside the 1.2 m radius.
  await lidar.publishAsync(
    topics.telemetry('proximity'),
    JSON.stringify(fixture.proximityFrame(2, Date.now(), 0.5)),
    { qos: 1 },
  );
  // The broker refuses the robot's account on the lidar's topic (it closes the connection)...
  // ...so the robot's account sends the lidar's source on its own joint-state topic instead.
  const forged = fixture.proximityFrame(3, Date.now(), null);
  await robot.publishAsync(topics.telemetry('joints'), JSON.stringify(forged), { qos: 1 });
  const vetoed = await decide('person-inside');
  t.equal(vetoed.outcome, 'vetoed', 'nothing is signed while the lidar sees a person');
  t.match(vetoed.violations.join('\n'), /RISK\.HUMAN_IN_RADIUS: human at 0\.50 m/, 'the lidar decided');
  const refused = await inbox.next<VerdictEvent>(topics.verdict, (v) =>
    hasEdgeViolation(v.violations.slice(0, 1), 'INPUT.TELEMETRY_WRONG_TOPIC'),
  );
  t.match(refused.violations[0], /source proximity .*telemetry\/joints/, 'the refusal names both');
});
