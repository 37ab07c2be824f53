/**
 * The odometry frames robots name otherwise than REP 105's `odom`: RealSense T265's `odom_frame` and
 * `camera_odom_frame`, PR2's `odom_combined` (robot_pose_ekf), KISS-ICP's `odom_lidar`. Each drifts from the map as
 * `odom` does, so without a frameId override a pose in one of them is skipped as wrong-frame; a frame that also
 * names the map (`odom_combined_map`) or names no odometry is not judged by its name.
 */
import t from 'tap';
import { RosMessageMapper } from '../../src/ros/message-mapping.js';
import { bindRole } from '../../src/ros/ros-bindings.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, baseProfile } from '../trap/fixtures.js';
import { odometryMsg, throughCdr } from './helpers/ros-messages.js';

const base = baseProfile();
const mapOdometry = (frameId: string, override: { frameId?: string } = {}) => {
  const b = bindRole(base, 'pose', '/odom', undefined, { type: ROS_TYPES.odometry, ...override });
  return new RosMessageMapper({ robotId: base.robotId }).map(
    b,
    throughCdr(b.type, odometryMsg(T0, { x: 1, y: 0 }, 0, {}, frameId)),
    T0,
  );
};

t.test('odometry frames named otherwise than odom are skipped as wrong-frame', async (t) => {
  for (const frameId of [
    'odom_frame',
    'camera_odom_frame',
    'odom_combined',
    'odom_lidar',
    'robot1/odom_frame',
  ]) {
    t.match(
      mapOdometry(frameId),
      {
        kind: 'skip',
        reason: 'wrong-frame',
        detail: new RegExp(`header\\.frame_id is "${frameId}": a pose in an odometry frame`),
      },
      frameId,
    );
  }
});

t.test('map frames, frames naming no odometry, and a frameId override are taken', async (t) => {
  for (const frameId of ['map', 'world', 'odom_combined_map', 'odometer_map', 'earth']) {
    t.match(mapOdometry(frameId), { kind: 'telemetry', frame: { kind: 'pose' } }, frameId);
  }
  t.match(mapOdometry('odom_frame', { frameId: 'odom_frame' }), { kind: 'telemetry' }, 'zones drawn in it');
});
