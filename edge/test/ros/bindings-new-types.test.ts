/**
 * Role bindings for the mobile-robot and car types: what a recording's topic of each type binds to, and the
 * overrides they take (a cloud's sector, height band and self-return range; an Ackermann wheelbase), refused
 * where they do not apply so a typo never silently widens what is searched.
 */
import t from 'tap';
import { bindRole, bindingForRecordedTopic } from '../../src/ros/ros-bindings.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { parseRoleOverrides } from '../../src/ros/ros-role-overrides.js';
import { armProfile, baseProfile } from '../trap/fixtures.js';

const base = baseProfile();

t.test('recorded topics of the new types bind by their type', async (t) => {
  t.match(bindingForRecordedTopic(base, '/odom', ROS_TYPES.odometry), {
    type: ROS_TYPES.odometry,
    target: { kind: 'telemetry', source: 'pose' },
  });
  t.match(bindingForRecordedTopic(base, '/velodyne_points', 'sensor_msgs/PointCloud2'), {
    type: ROS_TYPES.pointCloud2,
    target: { kind: 'telemetry', source: 'proximity-360' },
  });
  t.match(bindingForRecordedTopic(base, '/cmd_vel', ROS_TYPES.twistStamped), {
    type: ROS_TYPES.twistStamped,
    target: { kind: 'intent', twistDurationMs: 100 },
  });
  t.match(
    bindingForRecordedTopic(base, '/ackermann_cmd', ROS_TYPES.ackermannDriveStamped),
    { unbound: /needs "wheelbaseM"/ },
    'an Ackermann topic without a wheelbase is counted as unbound, with the reason',
  );
  t.match(
    bindingForRecordedTopic(base, '/ackermann_cmd', ROS_TYPES.ackermannDriveStamped, {
      ackermann_cmd: { wheelbaseM: 2.7 },
    }),
    { target: { kind: 'intent', wheelbaseM: 2.7 } },
  );
  t.match(bindingForRecordedTopic(armProfile(), '/odom', ROS_TYPES.odometry), {
    unbound: /no telemetry source is named like it/,
  });
  t.match(bindingForRecordedTopic(base, '/gps/fix', 'sensor_msgs/msg/NavSatFix'), { unbound: /fix/ });
});

t.test('overrides apply only to the types they describe', async (t) => {
  const cloud = { type: ROS_TYPES.pointCloud2 };
  t.throws(() => bindRole(base, 'proximity360', '/scan', undefined, { heightBand: { minZM: 0, maxZM: 1 } }), {
    message: /heightBand applies to sensor_msgs\/msg\/PointCloud2 only, not sensor_msgs\/msg\/LaserScan/,
  });
  t.throws(
    () =>
      bindRole(base, 'proximity360', '/range', undefined, {
        type: ROS_TYPES.range,
        sector: { minAngleRad: -1, maxAngleRad: 1 },
      }),
    {
      message:
        /sector applies to sensor_msgs\/msg\/LaserScan and sensor_msgs\/msg\/PointCloud2, not sensor_msgs\/msg\/Range/,
    },
  );
  t.throws(
    () =>
      bindRole(base, 'proximity360', '/points', undefined, { ...cloud, heightBand: { minZM: 2, maxZM: 1 } }),
    {
      message: /heightBand: minZM 2 is above maxZM 1/,
    },
  );
  t.throws(() => bindRole(base, 'proximity360', '/points', undefined, { ...cloud, minRangeM: -0.1 }), {
    message: /minRangeM: expected a finite distance ≥ 0 m, got -0.1/,
  });
  t.throws(() => bindRole(base, 'firmware', '/controller/firmware', undefined, { frameId: 'map' }), {
    message: /frameId applies to stamped messages, not std_msgs\/msg\/String/,
  });
  t.throws(() => bindRole(base, 'intent', '/cmd_vel', undefined, { wheelbaseM: 2 }), {
    message:
      /wheelbaseM applies to ackermann_msgs\/msg\/AckermannDriveStamped only, not geometry_msgs\/msg\/Twist/,
  });
  t.throws(
    () =>
      bindRole(base, 'intent', '/cmd_vel', undefined, {
        type: ROS_TYPES.ackermannDriveStamped,
        wheelbaseM: 0,
      }),
    {
      message: /needs "wheelbaseM".*; got 0/,
    },
  );
  t.throws(() => bindRole(base, 'intent', '/cmd_vel', undefined, { type: ROS_TYPES.imu }), {
    message:
      /intents are trajectory_msgs\/msg\/JointTrajectory, geometry_msgs\/msg\/Twist, geometry_msgs\/msg\/TwistStamped, ackermann_msgs\/msg\/AckermannDriveStamped; got sensor_msgs\/msg\/Imu/,
  });
  t.throws(() => bindRole(base, 'pose', '/points', undefined, cloud), {
    message:
      /source pose carries pose frames, read from geometry_msgs\/msg\/PoseStamped or nav_msgs\/msg\/Odometry/,
  });
});

t.test(
  'the bindings file takes heightBand, minRangeM, wheelbaseM and frameId, and refuses bad ones with their path',
  async (t) => {
    t.same(
      parseRoleOverrides(
        {
          points: { type: ROS_TYPES.pointCloud2, heightBand: { minZM: 0.1, maxZM: 1.9 }, minRangeM: 0.4 },
          intent: { type: ROS_TYPES.ackermannDriveStamped, wheelbaseM: 2.7 },
          pose: { type: ROS_TYPES.odometry, frameId: 'map' },
        },
        'bindings.yaml',
      ),
      {
        points: { type: ROS_TYPES.pointCloud2, heightBand: { minZM: 0.1, maxZM: 1.9 }, minRangeM: 0.4 },
        intent: { type: ROS_TYPES.ackermannDriveStamped, wheelbaseM: 2.7 },
        pose: { type: ROS_TYPES.odometry, frameId: 'map' },
      },
    );
    t.throws(
      () =>
        parseRoleOverrides(
          {
            points: { heightBand: { minZM: 2, maxZM: 1 }, minRangeM: 'near' },
            intent: { wheelbaseM: -1, heightband: 1 },
            pose: { frameId: '' },
          },
          'bindings.yaml',
        ),
      {
        code: 'INVALID_INPUT',
        message:
          /bindings\.yaml: points\.heightBand: expected \{ minZM: number, maxZM: number \} with minZM ≤ maxZM, got .*; points\.minRangeM: expected a distance ≥ 0 \(m\), got .*; intent\.wheelbaseM: expected a distance > 0 \(m\), got -1; intent\.heightband: unknown key.*; pose\.frameId: expected a non-empty string, got/,
      },
    );
  },
);
