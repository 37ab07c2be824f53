/**
 * What the STOP tests share: the robot's controller connects with its own account, listens for commands, feeds
 * one round of passing telemetry and asks for a 10 s move (100 points), so a motion is running when the test
 * disturbs the edge; resolves with the move's signed command and the inbox the STOP arrives in.
 */
import { type MotorCommand, robotTopics } from '@pentagate/protocol';
import type { ArmFixture } from './arm-fixture.js';
import { connectClient, MessageInbox } from './mqtt-clients.js';

export async function startLongMove(
  t: { teardown(fn: () => unknown): void },
  brokerUrl: string,
  login: { username: string; password: string },
  fixture: ArmFixture,
): Promise<{ inbox: MessageInbox; topics: ReturnType<typeof robotTopics>; move: MotorCommand }> {
  const robot = await connectClient(brokerUrl, login);
  t.teardown(() => robot.endAsync(true));
  const topics = robotTopics(fixture.robotId);
  const inbox = new MessageInbox(robot);
  await robot.subscribeAsync(topics.cmd, { qos: 1 });
  for (const frame of fixture.passingFrames(1, Date.now()))
    await robot.publishAsync(topics.telemetry(frame.source), JSON.stringify(frame), { qos: 1 });
  await robot.publishAsync(topics.intent, JSON.stringify(fixture.smallMove('long-move', 100)), { qos: 1 });
  const move = await inbox.next<MotorCommand>(topics.cmd, (c) => c.intentId === 'long-move');
  return { inbox, topics, move };
}
