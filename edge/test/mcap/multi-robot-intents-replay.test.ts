/**
 * A recording of two robots in one bag, as Nav2's multi-robot bringup names them: `/robot1/odom`, `/robot1/points`,
 * `/robot1/cmd_vel`, … and the same under `/robot2`. The profile is robot1's. The live edge reads intents only from
 * the topic its profile's `intent` role names; replay used to take every recorded command stream as an intent, so
 * robot2's `/robot2/cmd_vel` was judged on robot1's telemetry and signed as robot1's motion (robot1 stood still). Now
 * an intent topic other than the named one is not read (as live), whether or not the named one is in the recording;
 * with none named, two command streams leave it in doubt which one commands the robot: neither is judged from the
 * second one's first message on.
 */
import { join } from 'node:path';
import type { RobotProfile } from '@pentagate/protocol';
import t from 'tap';
import { McapFileSink } from '../../src/mcap/mcap-file-sink.js';
import { replayRecording } from '../../src/mcap/replay.js';
import { RosbagWriter } from '../../src/mcap/rosbag-writer.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, baseProfile, makeGate } from '../trap/fixtures.js';
import { cloudMsg, odometryMsg, twistStampedMsg } from '../ros/helpers/ros-messages.js';
import { batteryMsg, firmwareMsg } from '../transports/helpers/recordings.js';

const SUFFIXES = [
  ['/odom', ROS_TYPES.odometry],
  ['/points', ROS_TYPES.pointCloud2],
  ['/battery_state', ROS_TYPES.battery],
  ['/controller/firmware', ROS_TYPES.string],
  ['/cmd_vel', ROS_TYPES.twistStamped],
] as const;

/**
 * 1 s at 50 Hz. Both robots stand in clear aisles (robot1 at (5, 0), robot2 at (5, 10)); each drives when its
 * `cmd_vel` says so, at the offsets given (ms).
 */
async function twoRobots(path: string, commands: { robot1: number[]; robot2: number[] }): Promise<void> {
  const sink = await McapFileSink.create(path);
  const bag = await RosbagWriter.open({ writable: sink });
  for (const ns of ['/robot1', '/robot2'])
    for (const [suffix, type] of SUFFIXES) await bag.rosChannel(`${ns}${suffix}`, type);
  for (let dt = 0; dt <= 1000; dt += 20) {
    const at = T0 + dt;
    for (const [ns, y] of [
      ['/robot1', 0],
      ['/robot2', 10],
    ] as const) {
      await bag.write(`${ns}/odom`, odometryMsg(at - 2, { x: 5, y }), at);
      await bag.write(`${ns}/points`, cloudMsg(at - 1, [[4, -1, 0.5]]), at);
      if (dt % 100 === 0) await bag.write(`${ns}/battery_state`, { ...batteryMsg(at), voltage: 24 }, at);
      if (dt % 500 === 0) await bag.write(`${ns}/controller/firmware`, firmwareMsg(), at);
    }
    if (commands.robot1.includes(dt)) await bag.write('/robot1/cmd_vel', twistStampedMsg(at, 0.5, 0), at + 1);
    if (commands.robot2.includes(dt)) await bag.write('/robot2/cmd_vel', twistStampedMsg(at, 0.5, 0), at + 1);
  }
  await bag.end();
  await sink.close();
}

/** robot1's profile: its sources named under /robot1; the intent role names `intent`, or is left out. */
function robot1(intent: string | undefined): RobotProfile {
  return baseProfile((p) => {
    const ros2 = p.topics?.ros2;
    if (!ros2?.pose || !ros2.proximity360 || !ros2.battery || !ros2.firmware || !ros2.intent)
      throw new Error('the mobile-base profile names pose, proximity, battery, firmware and intent topics');
    ros2.pose.name = '/robot1/odom';
    ros2.proximity360.name = '/robot1/points';
    ros2.battery.name = '/robot1/battery_state';
    ros2.firmware.name = '/robot1/controller/firmware';
    if (intent === undefined) delete ros2.intent;
    else ros2.intent.name = intent;
  });
}

async function replay(path: string, profile: RobotProfile) {
  const { gate, profile: p } = makeGate(profile);
  return replayRecording({ bagPath: path, profile: p, gate });
}

const boundTo = (s: Awaited<ReturnType<typeof replay>>, topic: string) =>
  s.messages.byTopic.find((x) => x.topic === topic)?.boundTo;

t.test(
  "robot2's commands are not judged as robot1's when the profile names robot1's intent topic",
  async (t) => {
    const path = join(t.testdir(), 'two-robots.mcap');
    await twoRobots(path, { robot1: [], robot2: [200, 400, 600, 800] });
    const s = await replay(path, robot1('/robot1/cmd_vel'));
    t.equal(s.error, undefined);
    t.equal(s.telemetry.accepted, 51 + 51 + 11 + 3, "robot1's odometry, clouds, battery and firmware");
    t.equal(s.intents, 0, 'robot1 was never commanded');
    t.equal(s.commands.motion, 0, 'nothing signed for robot1');
    t.match(
      boundTo(s, '/robot2/cmd_vel'),
      /^unbound: \/robot2\/cmd_vel carries commands, but the profile's topics\.ros2 names \/robot1\/cmd_vel/,
    );
    t.match(s.warnings.join('\n'), /\/robot2\/cmd_vel \[geometry_msgs\/msg\/TwistStamped\] is not read/);
  },
);

t.test("robot1's own commands are judged beside robot2's", async (t) => {
  const path = join(t.testdir(), 'two-robots.mcap');
  await twoRobots(path, { robot1: [300], robot2: [200, 400, 600, 800] });
  const s = await replay(path, robot1('/robot1/cmd_vel'));
  t.equal(s.intents, 1, "robot1's one command");
  t.equal(s.verdicts.byOutcome.signed, 1, 'signed: robot1 is in a clear aisle');
  t.equal(boundTo(s, '/robot1/cmd_vel'), 'intent');
});

t.test('the profile names another intent topic: no command stream of the recording is judged', async (t) => {
  const path = join(t.testdir(), 'two-robots.mcap');
  await twoRobots(path, { robot1: [200, 600], robot2: [300, 700] });
  const s = await replay(path, robot1('/pentagate/intent'));
  t.equal(s.intents, 0);
  t.match(boundTo(s, '/robot1/cmd_vel'), /^unbound: .*names \/pentagate\/intent for this robot's intents/);
  t.match(s.warnings.join('\n'), /\/robot1\/cmd_vel \[geometry_msgs\/msg\/TwistStamped\] is not read/);
});

t.test('no intent topic named: two command streams leave it in doubt', async (t) => {
  const path = join(t.testdir(), 'two-robots.mcap');
  await twoRobots(path, { robot1: [200, 600], robot2: [300, 700] });
  const s = await replay(path, robot1(undefined));
  t.equal(s.intents, 1, "robot1's first command, before robot2's first: then neither is judged");
  t.match(
    boundTo(s, '/robot2/cmd_vel'),
    /^unbound: \/robot2\/cmd_vel and \/robot1\/cmd_vel both carry intents/,
  );
  t.match(
    boundTo(s, '/robot1/cmd_vel'),
    /^unbound: \/robot2\/cmd_vel and \/robot1\/cmd_vel both carry intents/,
  );
  t.match(s.warnings.join('\n'), /name the robot's intent topic in topics\.ros2/);
});
