/**
 * A Nav2 base's recording as it is made on a TurtleBot: wheel odometry in REP 105's `odom` frame (`/odom`) and
 * the localizer's map-frame pose, which Nav2's AMCL publishes as geometry_msgs/PoseWithCovarianceStamped on
 * `/amcl_pose`. The zones are in the map frame, so the profile names `/amcl_pose` for its pose source: the
 * pose is read from it (covariance left aside, as Odometry's), the odom-frame odometry is not read, and the base
 * coming within its footprint of a shelf is a keep-out breach. In the odom frame the same message is refused
 * (`wrong-frame`), as an odom-frame Odometry is.
 */
import { join } from 'node:path';
import t from 'tap';
import { McapFileSink } from '../../src/mcap/mcap-file-sink.js';
import { replayRecording } from '../../src/mcap/replay.js';
import { RosbagWriter } from '../../src/mcap/rosbag-writer.js';
import { RosMessageMapper } from '../../src/ros/message-mapping.js';
import { bindRole } from '../../src/ros/ros-bindings.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, baseProfile, makeGate } from '../trap/fixtures.js';
import { odometryMsg, poseWithCovarianceMsg, throughCdr } from '../ros/helpers/ros-messages.js';

const POSE_WITH_COVARIANCE = 'geometry_msgs/msg/PoseWithCovarianceStamped';

const profile = () =>
  baseProfile((p) => {
    const pose = p.topics?.ros2?.pose;
    if (!pose) throw new Error('the mobile-base profile names a pose topic');
    pose.name = '/amcl_pose';
  });

t.test('PoseWithCovarianceStamped feeds a pose source: pose.pose in the map frame', async (t) => {
  const base = profile();
  const b = bindRole(base, 'pose', '/amcl_pose', undefined, { type: POSE_WITH_COVARIANCE });
  t.equal(b.type, POSE_WITH_COVARIANCE);
  t.match(b.target, { kind: 'telemetry', source: 'pose', telemetryKind: 'pose' });
  const m = new RosMessageMapper({ robotId: base.robotId });
  const r = m.map(
    b,
    throughCdr(b.type, poseWithCovarianceMsg(T0 - 30, { x: 3, y: -1 }, Math.PI)),
    T0,
    b.type,
  );
  t.match(r, {
    kind: 'telemetry',
    frame: {
      kind: 'pose',
      source: 'pose',
      stampMs: T0 - 30,
      positionM: { x: 3, y: -1, z: 0 },
      orientation: { x: 0, y: 0, z: 1, w: Math.cos(Math.PI / 2) },
    },
  });
  if (r.kind === 'telemetry') t.match(makeGate(base).gate.ingestTelemetry(r.frame, T0), { accepted: true });
  t.match(m.map(b, throughCdr(b.type, poseWithCovarianceMsg(T0, { x: 3, y: -1 }, 0, 'odom')), T0), {
    kind: 'skip',
    reason: 'wrong-frame',
    detail: /^\/amcl_pose: header\.frame_id is "odom": a pose in the odom frame/,
  });
  t.match(m.map(b, throughCdr(b.type, poseWithCovarianceMsg(T0, { x: Number.NaN, y: 0 })), T0), {
    kind: 'skip',
    reason: 'non-finite',
    detail: /PoseWithCovarianceStamped\.pose\.pose\.position\.x: non-finite/,
  });
});

t.test('replay: the base is judged on the localizer pose, not on odom-frame odometry', async (t) => {
  const path = join(t.testdir(), 'nav2.mcap');
  const sink = await McapFileSink.create(path);
  const bag = await RosbagWriter.open({ writable: sink });
  await bag.rosChannel('/odom', ROS_TYPES.odometry);
  await bag.rosChannel('/amcl_pose', POSE_WITH_COVARIANCE);
  // 1 s at 50 Hz, driving +y from (5, 1.0) to (5, 1.8): within 0.35 m of shelf-row-a (y ≥ 2) from y > 1.65.
  for (let dt = 0; dt <= 1000; dt += 20) {
    const at = T0 + dt;
    const y = 1 + (0.8 * dt) / 1000;
    await bag.write('/amcl_pose', poseWithCovarianceMsg(at - 5, { x: 5, y }, Math.PI / 2), at);
    await bag.write('/odom', odometryMsg(at - 2, { x: 0.2, y: y - 1 }, Math.PI / 2, { vx: 0.8 }, 'odom'), at);
  }
  await bag.end();
  await sink.close();
  const { gate, profile: p } = makeGate(profile());
  const s = await replayRecording({ bagPath: path, profile: p, gate });
  t.equal(s.error, undefined);
  const bound = Object.fromEntries(s.messages.byTopic.map((x) => [x.topic, x.boundTo]));
  t.match(bound, { '/amcl_pose': 'telemetry:pose', '/odom': /the profile's topics\.ros2 names for it/ });
  t.equal(s.telemetry.accepted, 51, 'every localizer pose');
  t.match(s.warnings, [/^\/odom \[nav_msgs\/msg\/Odometry\] is not read/], 'the odometry only, said once');
  const keepOut = s.measured.breaches.filter((x) => x.check === 'keep-out');
  t.match(keepOut, [{ subject: 'shelf-row-a', detail: /^base at \(5\.00, 1\.6[6-9]\) m within 0\.35 m/ }]);
  t.notOk(
    s.measured.sourcesWithoutFrames.some((x) => x.source === 'pose'),
    'the pose source had frames',
  );
  t.match(
    s.measured.notChecked['base-speed'],
    { frames: 51, why: /^pose has no measured velocity/ },
    'a localizer pose carries no velocity: the speed check did not run, and the summary says so',
  );
});
