/**
 * Robot r1 behind the real embedded broker, as the sensor-trust tests attack it: accounts for the edge, the
 * lidar (the one account that may publish source `proximity`) and the robot; the edge node started on them;
 * the robot's and the lidar's clients connected, the robot subscribed to its commands and verdicts. Torn down
 * with the test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { robotTopics, type VerdictEvent } from '@pentagate/protocol';
import pino from 'pino';
import type { Test } from 'tap';
import { startEmbeddedBroker } from '../../../src/broker/embedded-broker.js';
import { startEdgeNode } from '../../../src/node/start-edge-node.js';
import { type ArmFixture, armFixture } from './arm-fixture.js';
import { connectClient, MessageInbox } from './mqtt-clients.js';

export const LIDAR_LOGIN = { username: 'lidar-r1', password: 'lidar-pass-9e4' } as const;

export interface LidarCell {
  brokerUrl: string;
  fixture: ArmFixture;
  /** The gate the edge node runs (its refusal counters). */
  gate: ReturnType<ArmFixture['makeGate']>;
  topics: ReturnType<typeof robotTopics>;
  robot: Awaited<ReturnType<typeof connectClient>>;
  lidar: Awaited<ReturnType<typeof connectClient>>;
  inbox: MessageInbox;
  /** Publishes a small move as the robot's planner and waits for its verdict. */
  decide(intentId: string): Promise<VerdictEvent>;
}

export async function startLidarCell(
  t: Test,
  options: { proximityKey?: Uint8Array } = {},
): Promise<LidarCell> {
  const broker = await startEmbeddedBroker({
    port: 0,
    users: [
      { username: 'edge-r1', password: 'edge-pass-5d2', role: 'edge', robotId: 'r1' },
      { ...LIDAR_LOGIN, role: 'sensor', robotId: 'r1', sources: ['proximity'] },
      { username: 'robot-r1', password: 'robot-pass-1a7', role: 'robot', robotId: 'r1' },
    ],
  });
  t.teardown(() => broker.close());
  const stateDir = await mkdtemp(join(tmpdir(), 'pentagate-lidar-cell-'));
  t.teardown(() => rm(stateDir, { recursive: true, force: true }));
  const fixture = armFixture({
    robotId: 'r1',
    fastSourceMaxAgeMs: 60_000,
    ...(options.proximityKey ? { proximityKey: options.proximityKey } : {}),
  });
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
  const lidar = await connectClient(broker.url, LIDAR_LOGIN);
  t.teardown(() => lidar.endAsync(true));
  const inbox = new MessageInbox(robot);
  await robot.subscribeAsync([topics.cmd, topics.verdict], { qos: 1 });
  const decide = async (intentId: string): Promise<VerdictEvent> => {
    await robot.publishAsync(topics.intent, JSON.stringify(fixture.smallMove(intentId, 100)), { qos: 1 });
    return inbox.next<VerdictEvent>(topics.verdict, (v) => v.intentId === intentId);
  };
  return { brokerUrl: broker.url, fixture, gate, topics, robot, lidar, inbox, decide };
}
