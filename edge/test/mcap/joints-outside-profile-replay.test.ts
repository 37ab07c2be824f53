/**
 * A mobile manipulator's recording: /joint_states (sensor_msgs/JointState) carries the arm's joints and the
 * gripper's finger_joint. Replay judges the arm's joints by name, reports an over-torque among them, and lists the
 * ignored joint once.
 */
import { join } from 'node:path';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { renderReplaySummary } from '../../src/mcap/replay-summary.js';
import { T0, makeGate } from '../trap/fixtures.js';
import { TOPICS, jointStateMsg, openBag } from '../transports/helpers/recordings.js';

t.test(
  'replay: an over-torque beside a gripper joint is reported; the gripper joint is listed once',
  async (t) => {
    const bag = join(t.testdir(), 'manipulator.mcap');
    const { gate, profile } = makeGate();
    const elbow = profile.joints[2]!;
    const w = await openBag(bag);
    for (let dt = 0; dt <= 400; dt += 20) {
      const at = T0 + dt;
      const arm = jointStateMsg(profile, at, [10, 40, dt >= 200 ? elbow.torqueLimitNm + 30 : 20, 2, 1, 0.5]);
      const msg = {
        ...arm,
        name: [...arm.name, 'finger_joint'],
        position: [...arm.position, 0.04],
        velocity: [...arm.velocity, 0],
        effort: [...arm.effort, 900],
      };
      await w.write(TOPICS.joints, msg, at);
    }
    await w.finish();
    const s = await replayRecording({ bagPath: bag, profile, gate });
    t.equal(s.error, undefined);
    t.equal(s.telemetry.accepted, 21, 'every joint state is taken');
    t.same(s.telemetry.rejected, {});
    t.same(s.telemetry.ignoredJoints, ['finger_joint']);
    t.match(s.measured.breaches, [{ atMs: T0 + 200, check: 'effort', subject: elbow.name }]);
    t.equal(s.measured.breaches.length, 1, 'finger_joint is judged against no arm limit');
    t.match(renderReplaySummary(s), /ignored joints not in the profile: finger_joint\n/);
  },
);
