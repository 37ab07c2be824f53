/**
 * An arm edge node on the real embedded broker with a robot account that publishes telemetry and intents and
 * reads commands and verdicts — the setup of the end-to-end telemetry tests. Every source stays fresh for the
 * whole test (60 s), so only what the test sends can make one stale or missing, even on a loaded machine.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MotorCommand, robotTopics, type VerdictEvent } from '@pentagate/protocol';
import pino from 'pino';
import type { Test } from 'tap';
import { startEmbeddedBroker } from '../../../src/broker/embedded-broker.js';
import { startEdgeNode } from '../../../src/node/start-edge-node.js';
import { armFixture } from './arm-fixture.js';
import { connectClient, MessageInbox } from './mqtt-clients.js';

/** `refusalWindowMs`: the node's refusal-summary window (default 60 s: nothing is summarised mid-test). */
export async function freshArmCell(t: Test, options: { refusalWindowMs?: number } = {}) {
  const broker = await startEmbeddedBroker({
    port: 0,
    users: [
      { username: 'edge-r1', password: 'edge-pass-7c1', role: 'edge', robotId: 'r1' },
      { username: 'robot-r1', password: 'robot-pass-2b9', role: 'robot', robotId: 'r1' },
    ],
  });
  t.teardown(() => broker.close());
  const stateDir = await mkdtemp(join(tmpdir(), 'pentagate-arm-cell-'));
  t.teardown(() => rm(stateDir, { recursive: true, force: true }));
  const fixture = armFixture({ robotId: 'r1', fastSourceMaxAgeMs: 60_000 });
  const topics = robotTopics('r1');
  const edge = await startEdgeNode({
    robotId: 'r1',
    gate: fixture.makeGate(),
    mqtt: { url: broker.url, username: 'edge-r1', password: 'edge-pass-7c1' },
    stateDir,
    logger: pino({ level: 'silent' }),
    refusalWindowMs: options.refusalWindowMs ?? 60_000,
  });
  t.teardown(() => edge.stop());
  const robot = await connectClient(broker.url, { username: 'robot-r1', password: 'robot-pass-2b9' });
  t.teardown(() => robot.endAsync(true));
  const inbox = new MessageInbox(robot);
  await robot.subscribeAsync([topics.cmd, topics.verdict], { qos: 1 });
  /** A JSON body, or a string sent as it is (a message that is not JSON). */
  const publish = (topic: string, body: unknown) =>
    robot.publishAsync(topic, typeof body === 'string' ? body : JSON.stringify(body), { qos: 1 });
  /** Sends an intent of 100 points over 10 s (still running when the next frames arrive) and reads its verdict. */
  const decide = async (intentId: string): Promise<VerdictEvent> => {
    await publish(topics.intent, fixture.smallMove(intentId, 100));
    return inbox.next<VerdictEvent>(topics.verdict, (v) => v.intentId === intentId);
  };
  const nextStop = (intentId: string) =>
    inbox.next<MotorCommand>(topics.cmd, (c) => c.setpoints.kind === 'stop' && c.intentId === intentId);
  return { fixture, topics, edge, robot, inbox, publish, decide, nextStop };
}
