/**
 * sensor_msgs/Imu: read and checked, used by no gate. Each estimate the IMU gives must be finite, and the
 * orientation a unit quaternion; an estimate whose covariance starts with -1 is absent ("If you have no estimate
 * for one of the data elements ... please set element 0 of the associated covariance matrix to -1",
 * sensor_msgs/msg/Imu.msg) and is not looked at. A bad message is skipped for what is wrong with it; a good one is
 * skipped as `not-gated`, so a recording's IMU topic shows up in the replay's counts with the reason instead of
 * vanishing, and an IMU on another clock shows up as `foreign-clock`.
 */
import { MappingSkip } from './mapping-skip.js';
import { type RosRecord, field, finiteQuaternion, finiteVector3, numberArray } from './ros-fields.js';

/** Largest deviation of a reported orientation's norm from 1 (float32 IMUs normalise to about 1e-6). */
const UNIT_NORM_TOLERANCE = 1e-3;

function given(msg: RosRecord, covariance: string, t: string): boolean {
  return numberArray(msg, covariance, t)[0] !== -1;
}

/** Throws MappingSkip (`not-gated` when the message is well formed) or FieldProblem. */
export function checkImu(msg: RosRecord, t: string, why: string): never {
  const present: string[] = [];
  if (given(msg, 'orientation_covariance', t)) {
    const q = finiteQuaternion(msg, 'orientation', t);
    const norm = Math.hypot(q.x, q.y, q.z, q.w);
    if (!(Math.abs(norm - 1) <= UNIT_NORM_TOLERANCE)) {
      throw new MappingSkip(
        'malformed',
        `${t}.orientation: expected a unit quaternion (or orientation_covariance[0] = -1), got norm ${norm}`,
      );
    }
    present.push('orientation');
  } else field(msg, 'orientation', t);
  for (const [name, covariance] of [
    ['angular_velocity', 'angular_velocity_covariance'],
    ['linear_acceleration', 'linear_acceleration_covariance'],
  ] as const) {
    if (!given(msg, covariance, t)) continue;
    finiteVector3(msg, name, t);
    present.push(name);
  }
  throw new MappingSkip(
    'not-gated',
    `${t} read (${present.join(', ') || 'no estimate'}) but not fed: ${why}`,
  );
}
