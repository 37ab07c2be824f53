/**
 * The bundled definitions of the mobile-robot and car types parse, and lay out CDR as the ROS 2 types do: the
 * byte counts below follow from the .msg fields and the XCDR1 alignment rules (a 4-byte encapsulation header,
 * then each primitive aligned to its size from the start of the body), computed by hand, not by the writer.
 */
import t from 'tap';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { hasBundledDefinition, ros2msgSchema } from '../../src/ros/ros-message-definitions.js';
import {
  ackermannMsg,
  cloudMsg,
  imuMsg,
  odometryMsg,
  throughCdr,
  toCdr,
  twistStampedMsg,
} from './helpers/ros-messages.js';

/** Encapsulation (4) + Header: sec, nanosec (8) + frame_id length (4) + "base_link\0" (10) = body offset 22. */
const HEADER_END = 22;
const align = (offset: number, n: number) => Math.ceil(offset / n) * n;

t.test('every new type has a bundled definition with its dependencies', async (t) => {
  for (const type of [
    ROS_TYPES.odometry,
    ROS_TYPES.twistStamped,
    ROS_TYPES.ackermannDriveStamped,
    ROS_TYPES.imu,
    ROS_TYPES.pointCloud2,
  ]) {
    t.ok(hasBundledDefinition(type), type);
  }
  t.match(
    ros2msgSchema(ROS_TYPES.odometry),
    /MSG: geometry_msgs\/PoseWithCovariance\nPose pose\nfloat64\[36\] covariance/,
  );
  t.match(ros2msgSchema(ROS_TYPES.pointCloud2), /MSG: sensor_msgs\/PointField\nuint8 INT8 {4}= 1\n/);
});

t.test('CDR sizes match the ROS 2 layouts', async (t) => {
  // TwistStamped: header, then 6 float64 aligned to 8.
  t.equal(
    toCdr(ROS_TYPES.twistStamped, twistStampedMsg(1, 0.5, 0.1)).byteLength,
    4 + align(HEADER_END, 8) + 6 * 8,
  );
  // AckermannDriveStamped: header, then 5 float32 aligned to 4.
  t.equal(
    toCdr(ROS_TYPES.ackermannDriveStamped, ackermannMsg(1, 1, 0.1)).byteLength,
    4 + align(HEADER_END, 4) + 5 * 4,
  );
  // Odometry: header (frame_id "map"), child_frame_id "base_link", pose (7 + 36 float64), twist (6 + 36 float64).
  const odomChild = 4 + 8 + 4 + 4 + 4 + 10; // → body offset 30
  t.equal(
    toCdr(ROS_TYPES.odometry, odometryMsg(1, { x: 1, y: 2 })).byteLength,
    4 + align(odomChild - 4, 8) + (7 + 36 + 6 + 36) * 8,
  );
  // Imu (frame_id "imu_link"): quaternion + 9 + vector + 9 + vector + 9 float64.
  t.equal(toCdr(ROS_TYPES.imu, imuMsg(1)).byteLength, 4 + align(8 + 4 + 9, 8) + (4 + 9 + 3 + 9 + 3 + 9) * 8);
});

t.test('values survive the round trip: fixed arrays, byte blobs, float32 fields', async (t) => {
  const odom = throughCdr(ROS_TYPES.odometry, odometryMsg(1, { x: 1, y: 2 })) as {
    pose: { covariance: ArrayLike<number> };
  };
  t.equal(odom.pose.covariance.length, 36);
  const cloud = cloudMsg(1, [[1, 2, 3]]);
  const back = throughCdr(ROS_TYPES.pointCloud2, cloud) as typeof cloud;
  t.ok(back.data instanceof Uint8Array, 'uint8[] decodes as a Uint8Array');
  t.same(Array.from(back.data), Array.from(cloud.data));
  t.same(back.fields, cloud.fields);
  const ack = throughCdr(ROS_TYPES.ackermannDriveStamped, ackermannMsg(1, 0.1, 0.2)) as ReturnType<
    typeof ackermannMsg
  >;
  t.equal(ack.drive.speed, Math.fround(0.1), 'AckermannDrive fields are float32');
});
