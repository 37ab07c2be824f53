/**
 * The live path: a mobile base on ROS 2 Jazzy (Odometry, a 3-D lidar's PointCloud2, TwistStamped cmd_vel, an IMU)
 * through the Ros2Transport over the fake of the rclnodejs surface — the same mapping as replay, subscribed with
 * the types the bindings name and handed to the node's inbound path as frames and intents.
 */
import t from 'tap';
import { Ros2Transport } from '../../src/ros/ros2-transport.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, baseProfile } from '../trap/fixtures.js';
import { FakeRclnodejs } from '../transports/helpers/fake-rclnodejs.js';
import { cloudMsg, imuMsg, odometryMsg, throughCdr, twistStampedMsg } from './helpers/ros-messages.js';

const sensorQos = { reliability: 'best-effort', durability: 'volatile', depth: 5 } as const;

t.test(
  'Odometry, PointCloud2, TwistStamped and Imu subscriptions feed frames, intents and counted skips',
  async (t) => {
    const profile = baseProfile((p) => {
      const ros2 = p.topics!.ros2!;
      ros2.pose = { name: '/odometry/global', qos: sensorQos };
      ros2.proximity360 = { name: '/points', qos: sensorQos };
      ros2.intent = { name: '/cmd_vel', qos: ros2.intent!.qos };
      ros2.imu = { name: '/imu/data', qos: sensorQos };
    });
    const rcl = new FakeRclnodejs();
    const skips: string[] = [];
    const transport = await Ros2Transport.start({
      profile,
      rclnodejs: rcl,
      clock: () => T0,
      overrides: {
        pose: { type: ROS_TYPES.odometry, frameId: 'map' },
        proximity360: { type: ROS_TYPES.pointCloud2, heightBand: { minZM: -0.3, maxZM: 1.8 } },
        intent: { type: ROS_TYPES.twistStamped },
        imu: { type: ROS_TYPES.imu },
      },
      onSkip: (b, reason) => skips.push(`${b.role}:${reason}`),
    });
    t.teardown(() => transport.close());
    const received: { topic: string; value: Record<string, unknown> }[] = [];
    transport.onMessage((topic, payload) =>
      received.push({ topic, value: JSON.parse(new TextDecoder().decode(payload)) }),
    );
    t.same(
      rcl.subscriptions.map((s) => [s.topic, s.typeClass]).sort(),
      [
        ['/battery_state', ROS_TYPES.battery],
        ['/cmd_vel', ROS_TYPES.twistStamped],
        ['/controller/firmware', ROS_TYPES.string],
        ['/imu/data', ROS_TYPES.imu],
        ['/odometry/global', ROS_TYPES.odometry],
        ['/pentagate/consent', ROS_TYPES.string],
        ['/points', ROS_TYPES.pointCloud2],
      ],
      'subscribed with the types the overrides name',
    );
    rcl.deliver(
      '/odometry/global',
      throughCdr(ROS_TYPES.odometry, odometryMsg(T0 - 3, { x: 5, y: 0 }, 0, { vx: 0.4 })),
    );
    rcl.deliver(
      '/odometry/global',
      throughCdr(ROS_TYPES.odometry, odometryMsg(T0 - 2, { x: 5, y: 0 }, 0, {}, 'odom')),
    );
    rcl.deliver(
      '/points',
      throughCdr(
        ROS_TYPES.pointCloud2,
        cloudMsg(T0 - 4, [
          [1.1, 0, 0.9],
          [0.8, 0, -0.35],
        ]),
      ),
    );
    rcl.deliver('/cmd_vel', throughCdr(ROS_TYPES.twistStamped, twistStampedMsg(T0 - 1, 0.3, 0)));
    rcl.deliver('/imu/data', throughCdr(ROS_TYPES.imu, imuMsg(T0 - 1)));
    t.match(received, [
      {
        topic: 'pentagate/v1/amr-07/telemetry/pose',
        value: { kind: 'pose', positionM: { x: 5 }, velocity: { linearMps: { x: 0.4 } } },
      },
      {
        topic: 'pentagate/v1/amr-07/telemetry/proximity-360',
        value: { kind: 'proximity', nearestHumanM: Math.fround(1.1) },
      },
      { topic: 'pentagate/v1/amr-07/intent', value: { kind: 'base-twist', linearMps: { x: 0.3 } } },
    ]);
    t.equal(
      received.length,
      3,
      'the floor point below the band is not the reading; the odom-frame pose is not fed',
    );
    t.same(skips, ['pose:wrong-frame', 'imu:not-gated']);
    t.match(transport.skipCounts(), { 'wrong-frame': 1, 'not-gated': 1 });
  },
);
