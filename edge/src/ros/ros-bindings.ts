/**
 * Which ROS 2 topic feeds which telemetry source or intent stream, and with which message type and QoS.
 *
 * The robot profile's `topics.ros2` maps roles to topic names and QoS. A role binds by name (ignoring case
 * and separators) to a telemetry source — `jointStates` → `joint_states`, `proximityFront` → `proximity-front` —
 * and the source's kind fixes the message type (its default in ros-types.ts unless an override or the recording
 * names another: nav_msgs/Odometry for a pose source, sensor_msgs/PointCloud2 for a proximity source). Special
 * roles: `intent` (trajectory_msgs/JointTrajectory for an arm, geometry_msgs/Twist for a mobile base, or
 * TwistStamped / ackermann_msgs/AckermannDriveStamped when named), `consent` (std_msgs/String holding a DSSE
 * envelope), and the outputs `verdict` (std_msgs/String), `diagnostics` (diagnostic_msgs/DiagnosticArray) and
 * `cmd` (std_msgs/String holding the signed command). sensor_msgs/Imu binds as `observed`: read and checked, but
 * no gate decides on it. What the profile cannot say (a scan or cloud sector, a cloud's height band, a Range
 * sensor instead of a scan, an Ackermann wheelbase, the frame a stamped source must be in, the move class of an
 * intent topic) comes from overrides, checked against the bound type by ros-override-fit.ts.
 *
 * A recording names its topics' types itself; `bindingForRecordedTopic` binds a recorded topic the same way,
 * using the last topic segment as the role when the profile does not name the topic.
 */
import type { RobotProfile, TelemetryKind } from '@pentagate/protocol';
import { TransportError } from '../transport/transport-error.js';
import { normalizeRosType } from './ros-message-definitions.js';
import { checkedTelemetryShape, checkedWheelbase, invalid } from './ros-override-fit.js';
import { INTENT_TYPES, KIND_BY_TYPE, OBSERVED_TYPES, ROS_TYPES, TYPES_BY_KIND } from './ros-types.js';

/** Angles in the scan's frame, rad, as LaserScan measures them (counter-clockwise from x). */
export interface ScanSector {
  minAngleRad: number;
  maxAngleRad: number;
}

/**
 * Heights in the point cloud's frame (z up; a camera optical frame's points are turned to those axes first), m:
 * points outside [minZM, maxZM] are not looked at.
 */
export interface HeightBand {
  minZM: number;
  maxZM: number;
}

export interface RosQos {
  reliability: 'reliable' | 'best-effort';
  durability: 'volatile' | 'transient-local';
  depth: number;
}

/** Sensor data: keep the latest few, drop rather than retransmit (rclcpp's SensorDataQoS). */
export const SENSOR_DATA_QOS: RosQos = { reliability: 'best-effort', durability: 'volatile', depth: 5 };
/** Intents, consent, commands and verdicts: every message counts. */
export const RELIABLE_QOS: RosQos = { reliability: 'reliable', durability: 'volatile', depth: 10 };

export interface RosRoleOverride {
  /** Message type, e.g. `sensor_msgs/msg/Range` for a proximity source fed by one range finder. */
  type?: string;
  /** The telemetry source this role feeds, when its name does not say. */
  source?: string;
  /**
   * LaserScan and PointCloud2: the angular sector searched for the nearest return (default: all around). A sector
   * with minAngleRad > maxAngleRad wraps through ±π (a rear sector from 2.5 to -2.5 rad).
   */
  sector?: ScanSector;
  /** PointCloud2 only: the heights searched (default: all); leave the floor and the ceiling out. */
  heightBand?: HeightBand;
  /** PointCloud2 only: points nearer than this in the plane are the robot itself, m (default 0). */
  minRangeM?: number;
  /** AckermannDriveStamped intents only: distance between the axles, m, to turn a steering angle into yaw rate. */
  wheelbaseM?: number;
  /**
   * Stamped telemetry only: the `header.frame_id` every message must carry (`map` for a pose source, so raw
   * `odom`-frame odometry, which drifts from the zones' frame, is refused as `wrong-frame`).
   */
  frameId?: string;
  /** Intents only: the move class and safety-critical mark given to every intent on this topic. */
  moveClass?: string;
  safetyCritical?: boolean;
  /** Twist intents only: how long each twist is held, ms (default 100, a 10 Hz cmd_vel stream). */
  twistDurationMs?: number;
}

export type RosTarget =
  | {
      kind: 'telemetry';
      source: string;
      telemetryKind: TelemetryKind;
      maxAgeMs: number;
      sector?: ScanSector;
      heightBand?: HeightBand;
      minRangeM?: number;
      frameId?: string;
      /** Joint-state sources: the profile's joint names (a joint the profile does not name is not gated). */
      profileJoints?: readonly string[];
    }
  | {
      kind: 'intent';
      moveClass?: string;
      safetyCritical?: boolean;
      twistDurationMs: number;
      wheelbaseM?: number;
    }
  | { kind: 'consent' }
  | { kind: 'observed'; why: string };

export interface RosBinding {
  role: string;
  topic: string;
  /** Normalized `pkg/msg/Type`. */
  type: string;
  qos: RosQos;
  target: RosTarget;
}

export type RosOutputRole = 'verdict' | 'diagnostics' | 'cmd';
export interface RosOutput {
  role: RosOutputRole;
  topic: string;
  type: string;
  qos: RosQos;
}

const OUTPUT_TYPES: Record<RosOutputRole, string> = {
  verdict: ROS_TYPES.string,
  diagnostics: ROS_TYPES.diagnosticArray,
  cmd: ROS_TYPES.string,
};

const squash = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

function intentBinding(
  profile: RobotProfile,
  role: string,
  topic: string,
  qos: RosQos,
  o: RosRoleOverride,
  recordedType?: string,
): RosBinding {
  const type = normalizeRosType(
    recordedType ?? o.type ?? (profile.kind === 'arm' ? ROS_TYPES.jointTrajectory : ROS_TYPES.twist),
  );
  if (!INTENT_TYPES.includes(type))
    throw invalid(role, `intents are ${INTENT_TYPES.join(', ')}; got ${type}`);
  const wheelbaseM = checkedWheelbase(role, type, o);
  return {
    role,
    topic,
    type,
    qos,
    target: {
      kind: 'intent',
      ...(o.moveClass !== undefined ? { moveClass: o.moveClass } : {}),
      ...(o.safetyCritical !== undefined ? { safetyCritical: o.safetyCritical } : {}),
      twistDurationMs: o.twistDurationMs ?? 100,
      ...(wheelbaseM !== undefined ? { wheelbaseM } : {}),
    },
  };
}

/**
 * Binds one input role. `recordedType` is the type a recording gives the topic (it wins over the default).
 * Throws TransportError ROS2_BINDING_INVALID naming the role when it cannot be bound.
 */
export function bindRole(
  profile: RobotProfile,
  role: string,
  topic: string,
  qos: RosQos | undefined,
  override: RosRoleOverride = {},
  recordedType?: string,
): RosBinding {
  const recorded = recordedType === undefined ? undefined : normalizeRosType(recordedType);
  if (role === 'intent' || (recorded !== undefined && INTENT_TYPES.includes(recorded))) {
    return intentBinding(profile, role, topic, qos ?? RELIABLE_QOS, override, recorded);
  }
  if (role === 'consent') {
    const type = normalizeRosType(recorded ?? override.type ?? ROS_TYPES.string);
    if (type !== ROS_TYPES.string) throw invalid(role, `consent arrives as ${ROS_TYPES.string}, got ${type}`);
    return { role, topic, type, qos: qos ?? RELIABLE_QOS, target: { kind: 'consent' } };
  }
  const wantedType = recorded ?? (override.type === undefined ? undefined : normalizeRosType(override.type));
  const observed = wantedType === undefined ? undefined : OBSERVED_TYPES[wantedType];
  if (wantedType !== undefined && observed !== undefined) {
    return {
      role,
      topic,
      type: wantedType,
      qos: qos ?? SENSOR_DATA_QOS,
      target: { kind: 'observed', why: observed },
    };
  }
  let source = override.source
    ? profile.sources.find((s) => s.name === override.source)
    : profile.sources.find((s) => squash(s.name) === squash(role));
  if (override.source && !source) throw invalid(role, `source ${override.source} is not in the profile`);
  if (!source && wantedType && KIND_BY_TYPE[wantedType]) {
    // A recorded /scan with the profile's only proximity source: bind it there.
    const ofKind = profile.sources.filter((s) => s.kind === KIND_BY_TYPE[wantedType]);
    if (ofKind.length === 1) source = ofKind[0];
  }
  if (!source && wantedType === ROS_TYPES.string) {
    const firmware = profile.sources.filter((s) => s.kind === 'firmware').map((s) => s.name);
    throw invalid(
      role,
      `std_msgs/msg/String is read only as consent (role consent) or as a firmware report (a role named after the firmware source${firmware.length > 0 ? `: ${firmware.join(', ')}` : ''}); nothing to do if ${topic} is neither, else name it in topics.ros2 under that role`,
    );
  }
  if (!source) {
    throw invalid(
      role,
      `no telemetry source is named like it (profile sources: ${profile.sources.map((s) => s.name).join(', ')}); name the role after a source (proximityFront → proximity-front) or give an override with "source"`,
    );
  }
  const allowed = TYPES_BY_KIND[source.kind];
  const type = wantedType ?? allowed[0]!;
  if (!allowed.includes(type)) {
    throw invalid(
      role,
      `source ${source.name} carries ${source.kind} frames, read from ${allowed.join(' or ')}, got ${type}`,
    );
  }
  const shape = checkedTelemetryShape(role, type, override);
  return {
    role,
    topic,
    type,
    qos: qos ?? SENSOR_DATA_QOS,
    target: {
      kind: 'telemetry',
      source: source.name,
      telemetryKind: source.kind,
      maxAgeMs: source.maxAgeMs,
      ...shape,
      ...(source.kind === 'joint-state' ? { profileJoints: profile.joints.map((j) => j.name) } : {}),
    },
  };
}

export interface RosBindings {
  inputs: RosBinding[];
  outputs: RosOutput[];
}

/** Every role of the profile's `topics.ros2`, bound. Throws on the first role that cannot be bound. */
export function rosBindingsFromProfile(
  profile: RobotProfile,
  overrides: Readonly<Record<string, RosRoleOverride>> = {},
): RosBindings {
  const roles = profile.topics?.ros2 ?? {};
  const inputs: RosBinding[] = [];
  const outputs: RosOutput[] = [];
  for (const [role, spec] of Object.entries(roles)) {
    if (role === 'verdict' || role === 'diagnostics' || role === 'cmd') {
      outputs.push({ role, topic: spec.name, type: OUTPUT_TYPES[role], qos: spec.qos });
    } else {
      inputs.push(bindRole(profile, role, spec.name, spec.qos, overrides[role]));
    }
  }
  for (const role of Object.keys(overrides)) {
    if (!Object.hasOwn(roles, role))
      throw invalid(role, 'has an override but no topic in the profile (topics.ros2)');
  }
  if (inputs.length === 0) {
    throw new TransportError(
      'ROS2_BINDING_INVALID',
      `profile ${profile.robotId}: topics.ros2 names no input topic; the ROS 2 transport would hear nothing`,
    );
  }
  return { inputs, outputs };
}

/**
 * Binds a topic found in a recording: by the profile's role for that topic name, else with the topic's last
 * segment as the role. Returns the reason instead when it cannot be bound (the topic is then counted, not read).
 */
/** The profile's `topics.ros2` role that names `topic` (with or without its leading `/`), if any. */
export function profileRoleForTopic(profile: RobotProfile, topic: string): string | undefined {
  const roles = profile.topics?.ros2 ?? {};
  return Object.entries(roles).find(([, spec]) => spec.name === topic || `/${spec.name}` === topic)?.[0];
}

export function bindingForRecordedTopic(
  profile: RobotProfile,
  topic: string,
  recordedType: string,
  overrides: Readonly<Record<string, RosRoleOverride>> = {},
): RosBinding | { unbound: string } {
  const roles = profile.topics?.ros2 ?? {};
  const namedRole = profileRoleForTopic(profile, topic);
  const named = namedRole === undefined ? undefined : ([namedRole, roles[namedRole]!] as const);
  const role =
    named?.[0] ??
    topic
      .split('/')
      .filter((s) => s.length > 0)
      .pop() ??
    topic;
  if (role === 'verdict' || role === 'diagnostics' || role === 'cmd')
    return { unbound: `${topic} is an output (${role})` };
  try {
    return bindRole(profile, role, topic, named?.[1].qos, overrides[role], recordedType);
  } catch (err) {
    return { unbound: (err as Error).message };
  }
}
