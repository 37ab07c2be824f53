/**
 * The ROS 2 message types the edge knows, and what each is read as: telemetry of which kind (the first type of a
 * kind is its default when nothing names another), an intent stream, or an observed type that is checked but
 * used by no gate. Names are normalized `pkg/msg/Type` (normalizeRosType).
 */
import type { TelemetryKind } from '@pentagate/protocol';

export const ROS_TYPES = {
  jointState: 'sensor_msgs/msg/JointState',
  battery: 'sensor_msgs/msg/BatteryState',
  range: 'sensor_msgs/msg/Range',
  laserScan: 'sensor_msgs/msg/LaserScan',
  poseStamped: 'geometry_msgs/msg/PoseStamped',
  poseWithCovarianceStamped: 'geometry_msgs/msg/PoseWithCovarianceStamped',
  jointTrajectory: 'trajectory_msgs/msg/JointTrajectory',
  twist: 'geometry_msgs/msg/Twist',
  twistStamped: 'geometry_msgs/msg/TwistStamped',
  ackermannDriveStamped: 'ackermann_msgs/msg/AckermannDriveStamped',
  odometry: 'nav_msgs/msg/Odometry',
  pointCloud2: 'sensor_msgs/msg/PointCloud2',
  imu: 'sensor_msgs/msg/Imu',
  string: 'std_msgs/msg/String',
  diagnosticArray: 'diagnostic_msgs/msg/DiagnosticArray',
} as const;

/** The message types read as intents; a recorded topic of one of these is an intent stream. */
export const INTENT_TYPES: readonly string[] = [
  ROS_TYPES.jointTrajectory,
  ROS_TYPES.twist,
  ROS_TYPES.twistStamped,
  ROS_TYPES.ackermannDriveStamped,
];

/** Types read and checked (stamp, finite values) but used by no gate: counted as `not-gated`, with the reason. */
export const OBSERVED_TYPES: Readonly<Record<string, string>> = {
  [ROS_TYPES.imu]:
    'no gate decides on IMU data (the gates read pose, proximity, joint states, battery and firmware)',
};

/** The message types each telemetry kind is read from; the first is the default. */
export const TYPES_BY_KIND: Record<TelemetryKind, readonly string[]> = {
  'joint-state': [ROS_TYPES.jointState],
  pose: [ROS_TYPES.poseStamped, ROS_TYPES.odometry, ROS_TYPES.poseWithCovarianceStamped],
  proximity: [ROS_TYPES.laserScan, ROS_TYPES.range, ROS_TYPES.pointCloud2],
  battery: [ROS_TYPES.battery],
  firmware: [ROS_TYPES.string],
};

/** The telemetry kind a type feeds (std_msgs/String is left out: it says nothing about the source it feeds). */
export const KIND_BY_TYPE: Readonly<Record<string, TelemetryKind>> = Object.fromEntries(
  Object.entries(TYPES_BY_KIND)
    .filter(([kind]) => kind !== 'firmware')
    .flatMap(([kind, types]) => types.map((type) => [type, kind as TelemetryKind])),
);
