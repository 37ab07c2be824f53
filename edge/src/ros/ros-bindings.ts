/**
 * Which ROS 2 topic feeds which telemetry source or intent stream, and with which message type and QoS.
 *
 * The robot profile's `topics.ros2` maps roles to topic names and QoS. A role binds by name (ignoring case
 * and separators) to a telemetry source — `jointStates` → `joint_states`, `proximityFront` → `proximity-front` —
 * and the source's kind fixes the message type. Special roles: `intent` (trajectory_msgs/JointTrajectory for an
 * arm, geometry_msgs/Twist for a mobile base), `consent` (std_msgs/String holding a DSSE envelope), and the
 * outputs `verdict` (std_msgs/String), `diagnostics` (diagnostic_msgs/DiagnosticArray) and `cmd`
 * (std_msgs/String holding the signed command). What the profile cannot say (a LaserScan sector, a Range
 * sensor instead of a scan, the move class of an intent topic) comes from overrides.
 *
 * A recording names its topics' types itself; `bindingForRecordedTopic` binds a recorded topic the same way,
 * using the last topic segment as the role when the profile does not name the topic.
 */
import type { RobotProfile, TelemetryKind } from '@pentagate/protocol';
import { TransportError } from '../transport/transport-error.js';
import { normalizeRosType } from './ros-message-definitions.js';

export const ROS_TYPES = {
  jointState: 'sensor_msgs/msg/JointState',
  battery: 'sensor_msgs/msg/BatteryState',
  range: 'sensor_msgs/msg/Range',
  laserScan: 'sensor_msgs/msg/LaserScan',
  poseStamped: 'geometry_msgs/msg/PoseStamped',
  jointTrajectory: 'trajectory_msgs/msg/JointTrajectory',
  twist: 'geometry_msgs/msg/Twist',
  string: 'std_msgs/msg/String',
  diagnosticArray: 'diagnostic_msgs/msg/DiagnosticArray',
} as const;

/** Angles in the scan's frame, rad, as LaserScan measures them (counter-clockwise from x). */
export interface ScanSector {
  minAngleRad: number;
  maxAngleRad: number;
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
   * LaserScan only: the angular sector searched for the nearest return (default: the whole scan). A sector with
   * minAngleRad > maxAngleRad wraps through ±π (a rear sector from 2.5 to -2.5 rad).
   */
  sector?: ScanSector;
  /** Intents only: the move class and safety-critical mark given to every intent on this topic. */
  moveClass?: string;
  safetyCritical?: boolean;
  /** Twist intents only: how long each twist is held, ms (default 100, a 10 Hz cmd_vel stream). */
  twistDurationMs?: number;
}

export type RosTarget =
  | { kind: 'telemetry'; source: string; telemetryKind: TelemetryKind; maxAgeMs: number; sector?: ScanSector }
  | { kind: 'intent'; moveClass?: string; safetyCritical?: boolean; twistDurationMs: number }
  | { kind: 'consent' };

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

const TYPES_BY_KIND: Record<TelemetryKind, readonly string[]> = {
  'joint-state': [ROS_TYPES.jointState],
  pose: [ROS_TYPES.poseStamped],
  proximity: [ROS_TYPES.laserScan, ROS_TYPES.range],
  battery: [ROS_TYPES.battery],
  firmware: [ROS_TYPES.string],
};

const KIND_BY_TYPE: Readonly<Record<string, TelemetryKind>> = {
  [ROS_TYPES.jointState]: 'joint-state',
  [ROS_TYPES.poseStamped]: 'pose',
  [ROS_TYPES.laserScan]: 'proximity',
  [ROS_TYPES.range]: 'proximity',
  [ROS_TYPES.battery]: 'battery',
};

const squash = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

function invalid(role: string, message: string): TransportError {
  return new TransportError('ROS2_BINDING_INVALID', `ros2 role ${role}: ${message}`);
}

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
  if (type !== ROS_TYPES.jointTrajectory && type !== ROS_TYPES.twist) {
    throw invalid(role, `intents are ${ROS_TYPES.jointTrajectory} or ${ROS_TYPES.twist}, got ${type}`);
  }
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
  if (role === 'intent' || recorded === ROS_TYPES.jointTrajectory || recorded === ROS_TYPES.twist) {
    return intentBinding(profile, role, topic, qos ?? RELIABLE_QOS, override, recorded);
  }
  if (role === 'consent') {
    const type = normalizeRosType(recorded ?? override.type ?? ROS_TYPES.string);
    if (type !== ROS_TYPES.string) throw invalid(role, `consent arrives as ${ROS_TYPES.string}, got ${type}`);
    return { role, topic, type, qos: qos ?? RELIABLE_QOS, target: { kind: 'consent' } };
  }
  const wantedType = recorded ?? (override.type === undefined ? undefined : normalizeRosType(override.type));
  let source = override.source
    ? profile.sources.find((s) => s.name === override.source)
    : profile.sources.find((s) => squash(s.name) === squash(role));
  if (override.source && !source) throw invalid(role, `source ${override.source} is not in the profile`);
  if (!source && wantedType && KIND_BY_TYPE[wantedType]) {
    // A recorded /scan with the profile's only proximity source: bind it there.
    const ofKind = profile.sources.filter((s) => s.kind === KIND_BY_TYPE[wantedType]);
    if (ofKind.length === 1) source = ofKind[0];
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
  if (
    override.sector &&
    !(Number.isFinite(override.sector.minAngleRad) && Number.isFinite(override.sector.maxAngleRad))
  ) {
    throw invalid(
      role,
      `sector: expected finite minAngleRad and maxAngleRad, got ${override.sector.minAngleRad}, ${override.sector.maxAngleRad}`,
    );
  }
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
      ...(override.sector ? { sector: override.sector } : {}),
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
export function bindingForRecordedTopic(
  profile: RobotProfile,
  topic: string,
  recordedType: string,
  overrides: Readonly<Record<string, RosRoleOverride>> = {},
): RosBinding | { unbound: string } {
  const roles = profile.topics?.ros2 ?? {};
  const named = Object.entries(roles).find(([, spec]) => spec.name === topic || `/${spec.name}` === topic);
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
