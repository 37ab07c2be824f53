/**
 * The standard ROS 2 message definitions the edge reads and writes, as `.msg` text (rosidl syntax, as shipped in
 * ROS 2 Humble's common_interfaces, rcl_interfaces and diagnostic_msgs; nav_msgs/Odometry, geometry_msgs/TwistStamped,
 * sensor_msgs/Imu, PointCloud2 and PointField as on common_interfaces' humble and jazzy branches, which agree;
 * ackermann_msgs as in ros-drivers/ackermann_msgs 2.0.2, its ROS 2 release). Field lines, constants and defaults
 * are copied as shipped, spacing included; comments are left out (they do not change the wire layout). They are
 * used when a recording's schema record is empty or a sqlite3 bag has no `message_definitions`, and to write
 * schemas into recordings and test fixtures. A recording's own schema always wins: it says how the bytes were
 * written.
 *
 * `ros2msgSchema(type)` concatenates a definition with its dependencies in the rosbag2 MCAP `ros2msg` layout
 * (a line of 80 `=` and `MSG: pkg/Type` before each dependency), which @foxglove/rosmsg parses.
 */

interface MsgDefinition {
  text: string;
  /** Types this one refers to, `pkg/Type`. */
  uses: readonly string[];
}

const DEFINITIONS: Readonly<Record<string, MsgDefinition>> = {
  'builtin_interfaces/Time': { text: 'int32 sec\nuint32 nanosec\n', uses: [] },
  'builtin_interfaces/Duration': { text: 'int32 sec\nuint32 nanosec\n', uses: [] },
  'std_msgs/Header': {
    text: 'builtin_interfaces/Time stamp\nstring frame_id\n',
    uses: ['builtin_interfaces/Time'],
  },
  'std_msgs/String': { text: 'string data\n', uses: [] },
  'sensor_msgs/JointState': {
    text: 'std_msgs/Header header\nstring[] name\nfloat64[] position\nfloat64[] velocity\nfloat64[] effort\n',
    uses: ['std_msgs/Header'],
  },
  'sensor_msgs/BatteryState': {
    text: [
      'uint8 POWER_SUPPLY_STATUS_UNKNOWN = 0',
      'uint8 POWER_SUPPLY_STATUS_CHARGING = 1',
      'uint8 POWER_SUPPLY_STATUS_DISCHARGING = 2',
      'uint8 POWER_SUPPLY_STATUS_NOT_CHARGING = 3',
      'uint8 POWER_SUPPLY_STATUS_FULL = 4',
      'std_msgs/Header header',
      'float32 voltage',
      'float32 temperature',
      'float32 current',
      'float32 charge',
      'float32 capacity',
      'float32 design_capacity',
      'float32 percentage',
      'uint8 power_supply_status',
      'uint8 power_supply_health',
      'uint8 power_supply_technology',
      'bool present',
      'float32[] cell_voltage',
      'float32[] cell_temperature',
      'string location',
      'string serial_number',
      '',
    ].join('\n'),
    uses: ['std_msgs/Header'],
  },
  'sensor_msgs/Range': {
    text: [
      'uint8 ULTRASOUND=0',
      'uint8 INFRARED=1',
      'std_msgs/Header header',
      'uint8 radiation_type',
      'float32 field_of_view',
      'float32 min_range',
      'float32 max_range',
      'float32 range',
      '',
    ].join('\n'),
    uses: ['std_msgs/Header'],
  },
  'sensor_msgs/LaserScan': {
    text: [
      'std_msgs/Header header',
      'float32 angle_min',
      'float32 angle_max',
      'float32 angle_increment',
      'float32 time_increment',
      'float32 scan_time',
      'float32 range_min',
      'float32 range_max',
      'float32[] ranges',
      'float32[] intensities',
      '',
    ].join('\n'),
    uses: ['std_msgs/Header'],
  },
  'geometry_msgs/Point': { text: 'float64 x\nfloat64 y\nfloat64 z\n', uses: [] },
  'geometry_msgs/Vector3': { text: 'float64 x\nfloat64 y\nfloat64 z\n', uses: [] },
  'geometry_msgs/Quaternion': { text: 'float64 x 0\nfloat64 y 0\nfloat64 z 0\nfloat64 w 1\n', uses: [] },
  'geometry_msgs/Pose': {
    text: 'Point position\nQuaternion orientation\n',
    uses: ['geometry_msgs/Point', 'geometry_msgs/Quaternion'],
  },
  'geometry_msgs/PoseStamped': {
    text: 'std_msgs/Header header\nPose pose\n',
    uses: ['std_msgs/Header', 'geometry_msgs/Pose'],
  },
  'geometry_msgs/Twist': { text: 'Vector3 linear\nVector3 angular\n', uses: ['geometry_msgs/Vector3'] },
  'geometry_msgs/TwistStamped': {
    text: 'std_msgs/Header header\nTwist twist\n',
    uses: ['std_msgs/Header', 'geometry_msgs/Twist'],
  },
  'geometry_msgs/PoseWithCovariance': {
    text: 'Pose pose\nfloat64[36] covariance\n',
    uses: ['geometry_msgs/Pose'],
  },
  'geometry_msgs/PoseWithCovarianceStamped': {
    text: 'std_msgs/Header header\nPoseWithCovariance pose\n',
    uses: ['std_msgs/Header', 'geometry_msgs/PoseWithCovariance'],
  },
  'geometry_msgs/TwistWithCovariance': {
    text: 'Twist twist\nfloat64[36] covariance\n',
    uses: ['geometry_msgs/Twist'],
  },
  'nav_msgs/Odometry': {
    text: [
      'std_msgs/Header header',
      'string child_frame_id',
      'geometry_msgs/PoseWithCovariance pose',
      'geometry_msgs/TwistWithCovariance twist',
      '',
    ].join('\n'),
    uses: ['std_msgs/Header', 'geometry_msgs/PoseWithCovariance', 'geometry_msgs/TwistWithCovariance'],
  },
  'sensor_msgs/Imu': {
    text: [
      'std_msgs/Header header',
      'geometry_msgs/Quaternion orientation',
      'float64[9] orientation_covariance',
      'geometry_msgs/Vector3 angular_velocity',
      'float64[9] angular_velocity_covariance',
      'geometry_msgs/Vector3 linear_acceleration',
      'float64[9] linear_acceleration_covariance',
      '',
    ].join('\n'),
    uses: ['std_msgs/Header', 'geometry_msgs/Quaternion', 'geometry_msgs/Vector3'],
  },
  'sensor_msgs/PointField': {
    text: [
      'uint8 INT8    = 1',
      'uint8 UINT8   = 2',
      'uint8 INT16   = 3',
      'uint8 UINT16  = 4',
      'uint8 INT32   = 5',
      'uint8 UINT32  = 6',
      'uint8 FLOAT32 = 7',
      'uint8 FLOAT64 = 8',
      'string name',
      'uint32 offset',
      'uint8  datatype',
      'uint32 count',
      '',
    ].join('\n'),
    uses: [],
  },
  'sensor_msgs/PointCloud2': {
    text: [
      'std_msgs/Header header',
      'uint32 height',
      'uint32 width',
      'PointField[] fields',
      'bool    is_bigendian',
      'uint32  point_step',
      'uint32  row_step',
      'uint8[] data',
      'bool is_dense',
      '',
    ].join('\n'),
    uses: ['std_msgs/Header', 'sensor_msgs/PointField'],
  },
  'ackermann_msgs/AckermannDrive': {
    text: [
      'float32 steering_angle',
      'float32 steering_angle_velocity',
      'float32 speed',
      'float32 acceleration',
      'float32 jerk',
      '',
    ].join('\n'),
    uses: [],
  },
  'ackermann_msgs/AckermannDriveStamped': {
    text: 'std_msgs/Header header\nAckermannDrive  drive\n',
    uses: ['std_msgs/Header', 'ackermann_msgs/AckermannDrive'],
  },
  'trajectory_msgs/JointTrajectoryPoint': {
    text: [
      'float64[] positions',
      'float64[] velocities',
      'float64[] accelerations',
      'float64[] effort',
      'builtin_interfaces/Duration time_from_start',
      '',
    ].join('\n'),
    uses: ['builtin_interfaces/Duration'],
  },
  'trajectory_msgs/JointTrajectory': {
    text: 'std_msgs/Header header\nstring[] joint_names\nJointTrajectoryPoint[] points\n',
    uses: ['std_msgs/Header', 'trajectory_msgs/JointTrajectoryPoint'],
  },
  'diagnostic_msgs/KeyValue': { text: 'string key\nstring value\n', uses: [] },
  'diagnostic_msgs/DiagnosticStatus': {
    text: [
      'byte OK=0',
      'byte WARN=1',
      'byte ERROR=2',
      'byte STALE=3',
      'byte level',
      'string name',
      'string message',
      'string hardware_id',
      'KeyValue[] values',
      '',
    ].join('\n'),
    uses: ['diagnostic_msgs/KeyValue'],
  },
  'diagnostic_msgs/DiagnosticArray': {
    text: 'std_msgs/Header header\nDiagnosticStatus[] status\n',
    uses: ['std_msgs/Header', 'diagnostic_msgs/DiagnosticStatus'],
  },
};

/** `sensor_msgs/msg/JointState` and `sensor_msgs/JointState` both become `sensor_msgs/msg/JointState`. */
export function normalizeRosType(type: string): string {
  const parts = type.split('/');
  if (parts.length === 2) return `${parts[0]}/msg/${parts[1]}`;
  return type;
}

/** `pkg/msg/Type`, `pkg/srv/Type` or `pkg/action/Type` at the start of a type token (array and bound suffixes kept). */
const LONG_TYPE_NAME = /^([A-Za-z][A-Za-z0-9_]*)\/(?:msg|srv|action)\/([A-Za-z][A-Za-z0-9_]*)/;

/**
 * A concatenated `ros2msg` definition with every type name in one form, `pkg/Type`. Writers differ: rosbag2 and
 * rosbags write `MSG: std_msgs/Header` and fields `std_msgs/Header header`, others write `MSG: std_msgs/msg/Header`,
 * and some mix both in one text (a section `MSG: std_msgs/msg/Header` for a field typed `std_msgs/Header`), which
 * @foxglove/rosmsg resolves by exact name and so refuses. Only names change: field names, constants, defaults
 * and comments are left as they are, so the wire layout the text describes is the same.
 */
export function unifyTypeNames(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const m = /^(\s*)(MSG:\s*)?(\S+)(.*)$/s.exec(line);
      if (!m || m[3]!.startsWith('#') || m[3]!.startsWith('=')) return line;
      return `${m[1]}${m[2] ?? ''}${m[3]!.replace(LONG_TYPE_NAME, '$1/$2')}${m[4]}`;
    })
    .join('\n');
}

function shortName(type: string): string {
  const parts = type.split('/');
  return parts.length === 3 && parts[1] === 'msg' ? `${parts[0]}/${parts[2]}` : type;
}

/** Whether a definition for `type` is bundled. */
export function hasBundledDefinition(type: string): boolean {
  return Object.hasOwn(DEFINITIONS, shortName(type));
}

/** The `ros2msg` schema text for `type` (with its dependencies), or undefined when it is not bundled. */
export function ros2msgSchema(type: string): string | undefined {
  const root = shortName(type);
  if (!Object.hasOwn(DEFINITIONS, root)) return undefined;
  const order: string[] = [];
  const visit = (name: string): void => {
    for (const dep of DEFINITIONS[name]?.uses ?? []) {
      if (!order.includes(dep)) {
        order.push(dep);
        visit(dep);
      }
    }
  };
  visit(root);
  const separator = '='.repeat(80);
  return [
    DEFINITIONS[root]!.text,
    ...order.map((dep) => `${separator}\nMSG: ${dep}\n${DEFINITIONS[dep]!.text}`),
  ].join('\n');
}
