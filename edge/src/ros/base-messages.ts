/**
 * Mobile-base messages. Telemetry: geometry_msgs/PoseStamped, PoseWithCovarianceStamped and nav_msgs/Odometry →
 * the body of a pose frame (the pose.pose of the latter two, whose frame is header.frame_id and must be the frame
 * of the profile's keep-out zones — the map frame — as for PoseStamped; plus Odometry's twist.twist as the frame's
 * measured velocity, in child_frame_id). Intents: geometry_msgs/Twist, TwistStamped (ROS 2 Jazzy's `cmd_vel`) and
 * ackermann_msgs/AckermannDriveStamped → the linear and angular velocity of a base-twist intent.
 *
 * Ackermann (ackermann_msgs/AckermannDrive): `speed` is measured at the rear axle centre, `steering_angle` is the
 * yaw of a virtual wheel at the front axle centre. The bicycle model gives the yaw rate ω = v·tan(δ)/L with L the
 * wheelbase. `acceleration` and `jerk` are limits for the car's controller, not part of the motion the gates
 * judge; `steering_angle_velocity` likewise.
 */
import { MappingSkip } from './mapping-skip.js';
import {
  type RosRecord,
  asRecord,
  field,
  finiteNumber,
  finiteQuaternion,
  finiteVector3,
} from './ros-fields.js';

/** geometry_msgs/Pose → position and orientation of a pose frame. */
function poseOf(pose: RosRecord, what: string) {
  return {
    kind: 'pose' as const,
    positionM: finiteVector3(pose, 'position', what),
    orientation: finiteQuaternion(pose, 'orientation', what),
  };
}

export function poseStampedBody(msg: RosRecord, t: string) {
  return poseOf(asRecord(field(msg, 'pose', t), `${t}.pose`), `${t}.pose`);
}

/**
 * A localizer's estimate (Nav2 AMCL's `/amcl_pose`, slam_toolbox's `/pose`) → pose from pose.pose, whose frame is
 * header.frame_id (the map frame the zones are in). Its covariance is not read, as Odometry's is not: the gates
 * take the estimate as the pose.
 */
export function poseWithCovarianceStampedBody(msg: RosRecord, t: string) {
  const pose = asRecord(field(msg, 'pose', t), `${t}.pose`);
  return poseOf(asRecord(field(pose, 'pose', `${t}.pose`), `${t}.pose.pose`), `${t}.pose.pose`);
}

/** Odometry → pose (pose.pose, header.frame_id) and the measured velocity (twist.twist, child_frame_id). */
export function odometryBody(msg: RosRecord, t: string) {
  const pose = asRecord(field(msg, 'pose', t), `${t}.pose`);
  const twist = asRecord(field(msg, 'twist', t), `${t}.twist`);
  return {
    ...poseOf(asRecord(field(pose, 'pose', `${t}.pose`), `${t}.pose.pose`), `${t}.pose.pose`),
    velocity: twistVelocity(
      asRecord(field(twist, 'twist', `${t}.twist`), `${t}.twist.twist`),
      `${t}.twist.twist`,
    ),
  };
}

export interface BaseVelocity {
  linearMps: { x: number; y: number; z: number };
  angularRadS: { x: number; y: number; z: number };
}

/** geometry_msgs/Twist (a message of its own, or the `twist` of a TwistStamped). */
export function twistVelocity(twist: RosRecord, what: string): BaseVelocity {
  return {
    linearMps: finiteVector3(twist, 'linear', what),
    angularRadS: finiteVector3(twist, 'angular', what),
  };
}

export function twistStampedVelocity(msg: RosRecord, t: string): BaseVelocity {
  return twistVelocity(asRecord(field(msg, 'twist', t), `${t}.twist`), `${t}.twist`);
}

export function ackermannVelocity(msg: RosRecord, t: string, wheelbaseM: number): BaseVelocity {
  const w = `${t}.drive`;
  const drive = asRecord(field(msg, 'drive', t), w);
  const steeringRad = finiteNumber(drive, 'steering_angle', w);
  const speedMps = finiteNumber(drive, 'speed', w);
  if (Math.abs(steeringRad) >= Math.PI / 2) {
    throw new MappingSkip(
      'malformed',
      `${w}.steering_angle ${steeringRad} rad: a front wheel turned ±90° or more has no Ackermann yaw rate`,
    );
  }
  return {
    linearMps: { x: speedMps, y: 0, z: 0 },
    angularRadS: { x: 0, y: 0, z: (speedMps * Math.tan(steeringRad)) / wheelbaseM },
  };
}
