import { acceptMotorCommand, type ControllerState } from '@pentagate/crypto';
import { conforms, type MotorCommand, VerdictEventSchema, type VerdictEvent } from '@pentagate/protocol';
import t, { type Test } from 'tap';
import { loadRclnodejs } from '../../src/ros/rclnodejs-loader.js';
import { Ros2Transport } from '../../src/ros/ros2-transport.js';
import { armFixture } from '../runtime/helpers/arm-fixture.js';
import { startedNode } from '../runtime/helpers/started-node.js';
import { FakeRclnodejs } from './helpers/fake-rclnodejs.js';
import { header, stamp } from './helpers/recordings.js';
import { rosProfile, sensor } from './helpers/ros-profile.js';

async function startRosEdge(t: Test) {
  const fixture = armFixture({ robotId: 'ros-arm' });
  const profile = rosProfile(fixture.profile);
  const rcl = new FakeRclnodejs();
  const skips: string[] = [];
  const transport = await Ros2Transport.start({
    profile,
    rclnodejs: rcl,
    onSkip: (_b, reason) => skips.push(reason),
  });
  const { node } = await startedNode(t, { fixture, transport });
  return { fixture, profile, rcl, transport, node, skips };
}

function feedHealthy(
  rcl: FakeRclnodejs,
  fixture: ReturnType<typeof armFixture>,
  nowMs: number,
  nearestM: number | null = null,
) {
  const js = fixture.passingFrames(1, nowMs).find((f) => f.kind === 'joint-state');
  if (js?.kind !== 'joint-state') throw new Error('fixture has a joint-state frame');
  rcl.deliver('/joint_states', {
    header: header(nowMs),
    name: js.names,
    position: Float64Array.from(js.positionsRad),
    velocity: js.velocitiesRadS,
    effort: js.effortsNm,
  });
  rcl.deliver('/scan', {
    header: header(nowMs),
    angle_min: -0.5,
    angle_max: 0.5,
    angle_increment: 0.5,
    time_increment: 0,
    scan_time: 0.1,
    range_min: 0.05,
    range_max: 20,
    ranges: Float32Array.from([Number.POSITIVE_INFINITY, nearestM ?? Number.POSITIVE_INFINITY, Number.NaN]),
    intensities: [],
  });
  rcl.deliver('/battery_state', {
    header: header(nowMs),
    voltage: 48,
    temperature: Number.NaN,
    current: -1,
    charge: Number.NaN,
    capacity: Number.NaN,
    percentage: 0.9,
  });
}

t.test('wires subscriptions and publishers from the profile, with its QoS, and spins', async (t) => {
  const { rcl } = await startRosEdge(t);
  t.ok(rcl.initialized);
  t.equal(rcl.nodes[0]?.name, 'pentagate_edge_ros_arm');
  t.equal(rcl.spun.length, 1);
  const sub = (topic: string) => rcl.subscriptions.find((s) => s.topic === topic)!;
  t.equal(sub('/joint_states').typeClass, 'sensor_msgs/msg/JointState');
  t.equal(
    sub('/joint_states').options.qos,
    'qos_profile_sensor_data',
    'sensor roles use the sensor-data profile',
  );
  t.equal(sub('/scan').typeClass, 'sensor_msgs/msg/LaserScan');
  t.match(sub('/battery_state').options.qos, { history: 1, depth: 1, reliability: 2, durability: 2 });
  t.equal(sub('/pentagate/intent').typeClass, 'trajectory_msgs/msg/JointTrajectory');
  t.match(sub('/pentagate/intent').options.qos, { depth: 10, reliability: 1, durability: 2 });
  t.equal(sub('/pentagate/consent').typeClass, 'std_msgs/msg/String');
  t.match(rcl.publisher('/pentagate/verdict'), {
    typeClass: 'std_msgs/msg/String',
    options: { qos: { reliability: 1, durability: 1, depth: 50 } },
  });
  t.equal(rcl.publisher('/diagnostics').typeClass, 'diagnostic_msgs/msg/DiagnosticArray');
  t.equal(rcl.publisher('/pentagate/cmd').typeClass, 'std_msgs/msg/String');
});

t.test(
  'ROS messages in → a signed command on /pentagate/cmd the controller accepts; a human → signed STOP',
  async (t) => {
    const { fixture, profile, rcl, node } = await startRosEdge(t);
    const keys = new Map([[fixture.hmacKey.kid, fixture.hmacKey.key]]);
    rcl.deliver('/controller/firmware', {
      data: JSON.stringify({ imageSha256: 'ab'.repeat(32), version: '1.0.0' }),
    });
    feedHealthy(rcl, fixture, Date.now());
    const move = fixture.smallMove('unused');
    if (move.kind !== 'joint-trajectory') throw new Error('fixture move is a trajectory');
    rcl.deliver('/pentagate/intent', {
      header: header(Date.now()),
      joint_names: move.jointNames,
      points: move.points.map((p) => ({
        positions: p.positionsRad,
        velocities: p.velocitiesRadS ?? [],
        accelerations: [],
        effort: p.effortsNm ?? [],
        time_from_start: stamp(p.timeFromStartMs),
      })),
    });
    await node.settled();
    const cmds = rcl.publisher('/pentagate/cmd').published as { data: string }[];
    t.equal(cmds.length, 1, 'one command published');
    const command = JSON.parse(cmds[0]!.data) as MotorCommand;
    let state: ControllerState = { robotId: profile.robotId, epoch: 0, lastSeq: 0 };
    const a = acceptMotorCommand(state, command, { keys, nowMs: Date.now() });
    t.ok(a.accepted, a.accepted ? 'accepted' : a.detail);
    if (a.accepted) state = a.state;
    const verdicts = (rcl.publisher('/pentagate/verdict').published as { data: string }[]).map(
      (m) => JSON.parse(m.data) as VerdictEvent,
    );
    t.ok(verdicts.some((v) => v.outcome === 'signed' && conforms(VerdictEventSchema, v)));
    t.ok(rcl.publisher('/diagnostics').published.length >= 1);

    feedHealthy(rcl, fixture, Date.now() + 1, 0.4);
    await node.settled();
    const stop = JSON.parse(
      (rcl.publisher('/pentagate/cmd').published.at(-1) as { data: string }).data,
    ) as MotorCommand;
    t.match(stop.setpoints, { kind: 'stop', reason: /RISK/ });
    t.ok(acceptMotorCommand(state, stop, { keys, nowMs: Date.now() }).accepted, 'the STOP is accepted');
    const diag = rcl.publisher('/diagnostics').published.at(-1) as {
      status: { name: string; level: number }[];
    };
    t.ok(
      diag.status.some((s) => s.name.endsWith('/RISK') && s.level === 2),
      'diagnostics show RISK in error',
    );
  },
);

t.test('skipped ROS messages never reach the gates and are counted by reason', async (t) => {
  const { profile, rcl, transport, skips, node } = await startRosEdge(t);
  const joints = profile.joints.map((j) => j.name);
  rcl.deliver('/joint_states', {
    header: header(Date.now()),
    name: joints,
    position: joints.map(() => Number.NaN),
    velocity: joints.map(() => 0),
    effort: joints.map(() => 0),
  });
  rcl.deliver('/joint_states', {
    header: header(Date.now() - 60_000),
    name: joints,
    position: joints.map(() => 0),
    velocity: joints.map(() => 0),
    effort: joints.map(() => 0),
  });
  rcl.deliver('/pentagate/intent', { header: header(Date.now()), joint_names: joints, points: 'soon' });
  await node.settled();
  t.same(skips, ['non-finite', 'stale-stamp', 'wrong-type']);
  t.match(transport.skipCounts(), { 'non-finite': 1, 'stale-stamp': 1, 'wrong-type': 1 });
  t.equal(rcl.publisher('/pentagate/cmd').published.length, 0);
  await node.stop();
  t.notOk(transport.isConnected());
  t.ok(rcl.shutDown && rcl.nodes[0]!.destroyed, 'close destroys the node and shuts rclnodejs down');
  rcl.deliver('/joint_states', {});
  await t.rejects(transport.publishCommand({} as MotorCommand), { code: 'TRANSPORT_CLOSED' });
});

t.test(
  'a profile without a cmd role, or with a role that binds to nothing, is refused before ROS starts',
  async (t) => {
    const fixture = armFixture();
    const p = rosProfile(fixture.profile);
    const { cmd: _cmd, ...noCmd } = p.topics!.ros2!;
    const rcl = new FakeRclnodejs();
    await t.rejects(Ros2Transport.start({ profile: { ...p, topics: { ros2: noCmd } }, rclnodejs: rcl }), {
      code: 'ROS2_BINDING_INVALID',
      message: /no cmd role/,
    });
    await t.rejects(
      Ros2Transport.start({
        profile: { ...p, topics: { ros2: { ...p.topics!.ros2!, lidar: { name: '/lidar', qos: sensor } } } },
        rclnodejs: rcl,
      }),
      { message: /role lidar: no telemetry source/ },
    );
    t.notOk(rcl.initialized, 'rclnodejs is not touched');
  },
);

t.test('rclnodejs is loaded only when ROS 2 is sourced, with a clear message otherwise', async (t) => {
  await t.rejects(loadRclnodejs({}), {
    code: 'ROS2_UNAVAILABLE',
    message: /ROS 2 is not sourced \(AMENT_PREFIX_PATH is unset\)/,
  });
  let imported = false;
  await t.rejects(
    loadRclnodejs({ AMENT_PREFIX_PATH: '/opt/ros/jazzy' }, async () => {
      imported = true;
      throw new Error("Cannot find package 'rclnodejs'");
    }),
    {
      code: 'ROS2_UNAVAILABLE',
      message:
        /sourced \(AMENT_PREFIX_PATH=\/opt\/ros\/jazzy\) but rclnodejs cannot be loaded: Cannot find package/,
    },
  );
  t.ok(imported);
  const fake = new FakeRclnodejs();
  t.equal(
    await loadRclnodejs({ AMENT_PREFIX_PATH: '/opt/ros/jazzy' }, async () => ({ default: fake })),
    fake,
    'CommonJS default export',
  );
  await t.rejects(
    loadRclnodejs({ AMENT_PREFIX_PATH: '/x' }, async () => ({})),
    { message: /lacks init, createNode or QoS/ },
  );
  await t.rejects(
    Ros2Transport.start({ profile: rosProfile(armFixture().profile) }),
    // with ROS 2 sourced any refusal will do; tap's ErrorMatch type has no empty pattern
    process.env.AMENT_PREFIX_PATH ? ({} as Error) : { code: 'ROS2_UNAVAILABLE' },
  );
});

t.test(
  'against a real ROS 2 graph',
  {
    skip: process.env.AMENT_PREFIX_PATH
      ? false
      : 'ROS 2 is not sourced here (AMENT_PREFIX_PATH unset); the real-rclnodejs test runs only where it is',
  },
  async (t) => {
    const fixture = armFixture({ robotId: 'ros-live' });
    const profile = rosProfile(fixture.profile);
    const transport = await Ros2Transport.start({ profile, nodeName: `pentagate_test_${process.pid}` });
    t.teardown(() => transport.close());
    t.ok(transport.isConnected(), 'rclnodejs loaded, node created and spinning');
  },
);
