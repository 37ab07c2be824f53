/**
 * sensor_msgs/Imu is read and checked but no gate decides on it: a well-formed message is counted as
 * `not-gated` with the reason, a broken one by what is wrong with it, and an IMU on another clock as
 * `foreign-clock` — never a silent nothing.
 */
import t from 'tap';
import { RosMessageMapper } from '../../src/ros/message-mapping.js';
import { bindRole, bindingForRecordedTopic } from '../../src/ros/ros-bindings.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, baseProfile } from '../trap/fixtures.js';
import { imuMsg, throughCdr } from './helpers/ros-messages.js';

const base = baseProfile();
const imu = ROS_TYPES.imu;
const b = bindRole(base, 'imu', '/imu/data', undefined, { type: 'sensor_msgs/msg/Imu' });
const map = (m: RosMessageMapper, msg: unknown, at = T0) => m.map(b, throughCdr(imu, msg), at, imu);

t.test('an IMU binds as observed, from the profile or from a recording', async (t) => {
  t.match(b, {
    type: imu,
    qos: { reliability: 'best-effort' },
    target: { kind: 'observed', why: /no gate decides on IMU data/ },
  });
  t.match(bindingForRecordedTopic(base, '/imu/data', 'sensor_msgs/msg/Imu'), {
    target: { kind: 'observed' },
  });
});

t.test('a well-formed IMU message is counted as not-gated, naming what it carried', async (t) => {
  const m = new RosMessageMapper({ robotId: base.robotId });
  t.match(map(m, imuMsg(T0 - 5)), {
    kind: 'skip',
    reason: 'not-gated',
    detail:
      /^\/imu\/data: sensor_msgs\/msg\/Imu read \(orientation, angular_velocity, linear_acceleration\) but not fed: no gate decides on IMU data/,
  });
  t.match(
    map(m, imuMsg(T0, { orientation: null })),
    { kind: 'skip', reason: 'not-gated', detail: /read \(angular_velocity, linear_acceleration\)/ },
    'orientation_covariance[0] = -1: no orientation estimate, its zero quaternion is not looked at',
  );
  t.match(m.skipCounts(), { 'not-gated': 2 });
});

t.test('a broken IMU message is skipped for what is wrong with it', async (t) => {
  const m = new RosMessageMapper({ robotId: base.robotId });
  t.match(map(m, imuMsg(T0, { orientation: { x: 0, y: 0, z: 0, w: 0.5 } })), {
    kind: 'skip',
    reason: 'malformed',
    detail: /orientation: expected a unit quaternion \(or orientation_covariance\[0\] = -1\), got norm 0\.5/,
  });
  t.match(map(m, imuMsg(T0, { angularVelocity: { x: Number.NaN, y: 0, z: 0 } })), {
    kind: 'skip',
    reason: 'non-finite',
    detail: /angular_velocity\.x/,
  });
  t.match(map(m, imuMsg(T0 - 3 * 86_400_000)), {
    kind: 'skip',
    reason: 'foreign-clock',
    detail: /3\.0 days before/,
  });
  t.match(map(m, imuMsg(0)), { kind: 'skip', reason: 'unstamped' });
  t.match(m.skipCounts(), {
    malformed: 1,
    'non-finite': 1,
    'foreign-clock': 1,
    unstamped: 1,
    'not-gated': 0,
  });
});
