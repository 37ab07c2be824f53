/**
 * A motion command the transport does not take (it expired while its verdict was made durable, or the link
 * is down) is followed by a STOP. The gate monitors the plan of the command it signed last; when that
 * command never reaches the controller, the robot runs on with the motion before it, which nobody watched
 * any longer: once the unsent command's short plan had ended, a person walking into the radius of the arm
 * still carrying out the long earlier move got no STOP.
 */
import { type MotorCommand, robotTopics } from '@pentagate/protocol';
import t from 'tap';
import { CommandExpiredError } from '../../src/mqtt/command-expired-error.js';
import { RecordingTransport } from './helpers/recording-transport.js';
import { startedNode } from './helpers/started-node.js';

/** Refuses motion commands while `refuseMotion` is set, as the MQTT transport refuses an expired one. */
class RefusingTransport extends RecordingTransport {
  refuseMotion = false;

  override async publishCommand(command: MotorCommand): Promise<void> {
    if (this.refuseMotion && command.setpoints.kind !== 'stop') {
      throw new CommandExpiredError(command.seq, command.validUntil, command.validUntil + 5);
    }
    return super.publishCommand(command);
  }
}

t.test('a motion command that is not published is followed by a STOP', async (t) => {
  const { node, transport, fixture } = await startedNode(t, { transport: new RefusingTransport() });
  const topics = robotTopics('r1');
  for (const frame of fixture.passingFrames(1, Date.now()))
    transport.deliver(topics.telemetry(frame.source), frame);
  transport.deliver(topics.intent, fixture.smallMove('long', 100)); // 10 s
  await node.settled();
  t.same(
    transport.commands().map((c) => c.setpoints.kind),
    ['joint'],
    'the long move is out',
  );

  transport.refuseMotion = true;
  transport.deliver(topics.intent, fixture.smallMove('short', 2));
  await node.settled();
  const kinds = transport.commands().map((c) => `${c.setpoints.kind}:${c.intentId}`);
  t.same(kinds.slice(1), ['stop:short'], 'the robot is stopped, not left on the long move');
  t.match(transport.verdicts().at(-1), {
    outcome: 'stopped',
    violations: [/^EDGE\.COMMAND_UNSENT: command seq \d+ \(short\) could not be published/],
  });
});
