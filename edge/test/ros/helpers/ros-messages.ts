/**
 * Messages of the mobile-robot and car types as rosbag2 and rclnodejs carry them, for the mapping tests: builders
 * for nav_msgs/Odometry, geometry_msgs/PoseWithCovarianceStamped and TwistStamped,
 * ackermann_msgs/AckermannDriveStamped, sensor_msgs/Imu and sensor_msgs/PointCloud2 (with a chosen point
 * layout), and `throughCdr`, which encodes a message to CDR bytes
 * with the bundled definition and decodes it back (@foxglove/rosmsg2-serialization), so a test maps exactly what a
 * recording yields. Not a test file itself.
 */
import { parse as parseMsgDefinition } from '@foxglove/rosmsg';
import { MessageReader, MessageWriter } from '@foxglove/rosmsg2-serialization';
import { ros2msgSchema } from '../../../src/ros/ros-message-definitions.js';

export const stamp = (ms: number) => ({ sec: Math.floor(ms / 1000), nanosec: (ms % 1000) * 1e6 });
export const header = (ms: number, frameId = 'base_link') => ({ stamp: stamp(ms), frame_id: frameId });

/** The CDR bytes of `message` as `type`, written with the bundled definition. */
export function toCdr(type: string, message: unknown): Uint8Array {
  const text = ros2msgSchema(type);
  if (!text) throw new Error(`no bundled definition for ${type}`);
  return new MessageWriter(parseMsgDefinition(text, { ros2: true })).writeMessage(message);
}

/** `message` encoded to CDR and decoded back: what a recording or a subscription hands the mapper. */
export function throughCdr(type: string, message: unknown): unknown {
  const bytes = toCdr(type, message);
  return new MessageReader(parseMsgDefinition(ros2msgSchema(type)!, { ros2: true })).readMessage(bytes);
}

const zeros = (n: number) => new Array<number>(n).fill(0);
const vector = (x = 0, y = 0, z = 0) => ({ x, y, z });

export function odometryMsg(
  ms: number,
  position: { x: number; y: number; z?: number },
  yawRad = 0,
  twist: { vx?: number; wz?: number } = {},
  frameId = 'map',
) {
  return {
    header: header(ms, frameId),
    child_frame_id: 'base_link',
    pose: {
      pose: {
        position: vector(position.x, position.y, position.z ?? 0),
        orientation: { x: 0, y: 0, z: Math.sin(yawRad / 2), w: Math.cos(yawRad / 2) },
      },
      covariance: zeros(36),
    },
    twist: {
      twist: { linear: vector(twist.vx ?? 0), angular: vector(0, 0, twist.wz ?? 0) },
      covariance: zeros(36),
    },
  };
}

/** A localizer's map-frame pose (Nav2 AMCL's `/amcl_pose`), with AMCL's usual covariance. */
export function poseWithCovarianceMsg(
  ms: number,
  position: { x: number; y: number },
  yawRad = 0,
  frameId = 'map',
) {
  const covariance = zeros(36);
  covariance[0] = 0.04;
  covariance[7] = 0.04;
  covariance[35] = 0.02;
  return {
    header: header(ms, frameId),
    pose: {
      pose: {
        position: vector(position.x, position.y, 0),
        orientation: { x: 0, y: 0, z: Math.sin(yawRad / 2), w: Math.cos(yawRad / 2) },
      },
      covariance,
    },
  };
}

export function twistStampedMsg(ms: number, vx: number, wz: number) {
  return { header: header(ms), twist: { linear: vector(vx), angular: vector(0, 0, wz) } };
}

export function ackermannMsg(ms: number, speedMps: number, steeringRad: number) {
  return {
    header: header(ms),
    drive: {
      steering_angle: steeringRad,
      steering_angle_velocity: 0,
      speed: speedMps,
      acceleration: 0,
      jerk: 0,
    },
  };
}

/** An IMU message; an estimate left out gets covariance[0] = -1, as sensor_msgs/Imu asks. */
export function imuMsg(
  ms: number,
  over: {
    orientation?: { x: number; y: number; z: number; w: number } | null;
    angularVelocity?: { x: number; y: number; z: number } | null;
    linearAcceleration?: { x: number; y: number; z: number } | null;
  } = {},
) {
  const absent = [-1, ...zeros(8)];
  const o = over.orientation === undefined ? { x: 0, y: 0, z: 0, w: 1 } : over.orientation;
  const av = over.angularVelocity === undefined ? vector(0, 0, 0.1) : over.angularVelocity;
  const la = over.linearAcceleration === undefined ? vector(0, 0, 9.81) : over.linearAcceleration;
  return {
    header: header(ms, 'imu_link'),
    orientation: o ?? { x: 0, y: 0, z: 0, w: 0 },
    orientation_covariance: o ? zeros(9) : absent,
    angular_velocity: av ?? vector(),
    angular_velocity_covariance: av ? zeros(9) : absent,
    linear_acceleration: la ?? vector(),
    linear_acceleration_covariance: la ? zeros(9) : absent,
  };
}

export const FLOAT32 = 7;
export const FLOAT64 = 8;

export interface CloudLayout {
  /** PointField datatype of x, y and z (default FLOAT32). */
  datatype?: typeof FLOAT32 | typeof FLOAT64;
  bigEndian?: boolean;
  /** Points per row (default: all points in one row, an unorganized cloud). */
  width?: number;
  /** Bytes of padding after each row (row_step larger than width × point_step). */
  rowPadding?: number;
  /** Put an intensity field first, so x, y and z do not start at offset 0. */
  intensityFirst?: boolean;
}

/**
 * A sensor_msgs/PointCloud2 holding `points` ([x, y, z] in m), laid out as a driver would: fields at their
 * offsets with 4 bytes of padding after z (PCL's PointXYZ layout), in the byte order asked for.
 */
export function cloudMsg(ms: number, points: readonly (readonly number[])[], layout: CloudLayout = {}) {
  const datatype = layout.datatype ?? FLOAT32;
  const size = datatype === FLOAT64 ? 8 : 4;
  const base = layout.intensityFirst ? 4 : 0;
  const fields = [
    ...(layout.intensityFirst ? [{ name: 'intensity', offset: 0, datatype: FLOAT32, count: 1 }] : []),
    { name: 'x', offset: base, datatype, count: 1 },
    { name: 'y', offset: base + size, datatype, count: 1 },
    { name: 'z', offset: base + 2 * size, datatype, count: 1 },
  ];
  const pointStep = base + 4 * size;
  const width = layout.width ?? points.length;
  const height = width === 0 ? 0 : Math.ceil(points.length / width);
  const rowStep = width * pointStep + (layout.rowPadding ?? 0);
  const data = new Uint8Array(rowStep * height).fill(0xee); // padding bytes are garbage, never read
  const view = new DataView(data.buffer);
  const little = !layout.bigEndian;
  points.forEach((p, i) => {
    const at = Math.floor(i / width) * rowStep + (i % width) * pointStep;
    if (layout.intensityFirst) view.setFloat32(at, 100, little);
    p.forEach((v, k) => {
      if (size === 8) view.setFloat64(at + base + k * size, v, little);
      else view.setFloat32(at + base + k * size, v, little);
    });
  });
  return {
    header: header(ms, 'lidar'),
    height,
    width,
    fields,
    is_bigendian: layout.bigEndian ?? false,
    point_step: pointStep,
    row_step: rowStep,
    data,
    is_dense: points.every((p) => p.every(Number.isFinite)),
  };
}
