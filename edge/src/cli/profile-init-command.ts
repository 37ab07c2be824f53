/**
 * `pentagate edge profile init --from-bag BAG`: a robot profile skeleton from a recording — the joints (names from
 * the first JointState, with the largest efforts and the position range seen, as comments), a telemetry source
 * and a ROS 2 role per sensor topic (sensor QoS best-effort, intents and commands reliable), the intent topic —
 * for the user to fill in the limits. Every limit is left `null`, so `pentagate edge check` names each one still
 * to fill in and the edge refuses to run on the skeleton: a guessed limit would be a limit nobody chose.
 */
import { type Command, ExitCode, UsageError, requireOption } from '@pentagate/protocol';
import { readRecording } from '../mcap/recording-reader.js';
import { odometryFrameKind } from '../ros/odometry-frames.js';
import { type RosRecord, headerFrameId } from '../ros/ros-fields.js';
import { MAX_PLAUSIBLE_RANGE_M } from '../ros/scan-plausibility.js';
import { INTENT_TYPES, ROS_TYPES, TYPES_BY_KIND } from '../ros/ros-types.js';
import { optionalString, writeNewFile } from './cli-values.js';
import { uniqueSourceNames } from './topic-source-names.js';

interface Found {
  topics: Map<string, { type: string; messages: number; logMs: number[] }>;
  /** `header.frame_id` of each pose topic's first message. */
  poseFrames: Map<string, string>;
  /** The joint names of each JointState topic's first message; the joints are the first topic's. */
  jointNames: Map<string, string[]>;
  jointTopic?: string;
  /** The largest range a LaserScan or Range topic's messages declare (`range_max`, `max_range`), m. */
  declaredRangeM: Map<string, number>;
  joints: string[];
  maxEffortNm: number[];
  minPositionRad: number[];
  maxPositionRad: number[];
}

const SOURCE_OF_TYPE: Readonly<Record<string, { kind: string; maxAgeMs: number }>> = {
  [ROS_TYPES.jointState]: { kind: 'joint-state', maxAgeMs: 100 },
  [ROS_TYPES.laserScan]: { kind: 'proximity', maxAgeMs: 200 },
  [ROS_TYPES.range]: { kind: 'proximity', maxAgeMs: 200 },
  [ROS_TYPES.battery]: { kind: 'battery', maxAgeMs: 2000 },
  [ROS_TYPES.poseStamped]: { kind: 'pose', maxAgeMs: 200 },
  [ROS_TYPES.odometry]: { kind: 'pose', maxAgeMs: 200 },
  [ROS_TYPES.poseWithCovarianceStamped]: { kind: 'pose', maxAgeMs: 200 },
  [ROS_TYPES.pointCloud2]: { kind: 'proximity', maxAgeMs: 200 },
};
const POSE_TYPES = new Set<string>(TYPES_BY_KIND.pose);
/** Where a range sensor's message declares its measuring range (a PointCloud2 declares none). */
const RANGE_FIELDS: Readonly<Record<string, string>> = {
  [ROS_TYPES.laserScan]: 'range_max',
  [ROS_TYPES.range]: 'max_range',
};
const BASE_INTENT_TYPES = new Set<string>(INTENT_TYPES.filter((type) => type !== ROS_TYPES.jointTrajectory));
/** What a role's type is when nothing says otherwise (ros-bindings.ts); any other type needs a bindings override. */
const DEFAULT_TYPES = new Set<string>([
  ROS_TYPES.jointState,
  ROS_TYPES.laserScan,
  ROS_TYPES.battery,
  ROS_TYPES.poseStamped,
  ROS_TYPES.jointTrajectory,
  ROS_TYPES.twist,
]);

async function scan(bag: string): Promise<Found> {
  const found: Found = {
    topics: new Map(),
    poseFrames: new Map(),
    jointNames: new Map(),
    declaredRangeM: new Map(),
    joints: [],
    maxEffortNm: [],
    minPositionRad: [],
    maxPositionRad: [],
  };
  // Joint states, poses (for their frame) and range sensors (for their declared range) are read; every other
  // topic is counted by type, left undecoded.
  const wanted = (_topic: string, type: string) =>
    type === ROS_TYPES.jointState || POSE_TYPES.has(type) || RANGE_FIELDS[type] !== undefined;
  for await (const item of readRecording(bag, undefined, { wanted })) {
    const t = found.topics.get(item.topic) ?? { type: item.type, messages: 0, logMs: [] };
    t.messages += 1;
    t.logMs.push(Number(item.logTimeNs / 1_000_000n));
    found.topics.set(item.topic, t);
    if (item.kind === 'message' && POSE_TYPES.has(item.type) && !found.poseFrames.has(item.topic)) {
      try {
        found.poseFrames.set(item.topic, headerFrameId(item.message as RosRecord, item.type));
      } catch {
        // No readable frame: the topic is offered as it is, and the mapping judges each message.
      }
    }
    const rangeField = RANGE_FIELDS[item.type];
    if (item.kind === 'message' && rangeField !== undefined) {
      const declared = Number((item.message as RosRecord)[rangeField]);
      const seen = found.declaredRangeM.get(item.topic) ?? 0;
      if (Number.isFinite(declared) && declared > seen) found.declaredRangeM.set(item.topic, declared);
    }
    if (item.kind !== 'message' || item.type !== ROS_TYPES.jointState) continue;
    const m = item.message as { name?: string[]; position?: ArrayLike<number>; effort?: ArrayLike<number> };
    if (Array.isArray(m.name) && !found.jointNames.has(item.topic))
      found.jointNames.set(item.topic, [...m.name]);
    if (found.jointTopic === undefined && Array.isArray(m.name)) {
      found.jointTopic = item.topic;
      found.joints = [...m.name];
      found.maxEffortNm = found.joints.map(() => 0);
      found.minPositionRad = found.joints.map(() => Number.POSITIVE_INFINITY);
      found.maxPositionRad = found.joints.map(() => Number.NEGATIVE_INFINITY);
    }
    // Efforts and positions as the joints' own topic measures them (another arm's would be another robot's).
    if (item.topic !== found.jointTopic) continue;
    found.joints.forEach((name, i) => {
      const j = m.name?.indexOf(name) ?? -1;
      const effort = j >= 0 ? Number(m.effort?.[j]) : Number.NaN;
      const position = j >= 0 ? Number(m.position?.[j]) : Number.NaN;
      if (Number.isFinite(effort)) found.maxEffortNm[i] = Math.max(found.maxEffortNm[i]!, Math.abs(effort));
      if (Number.isFinite(position)) {
        found.minPositionRad[i] = Math.min(found.minPositionRad[i]!, position);
        found.maxPositionRad[i] = Math.max(found.maxPositionRad[i]!, position);
      }
    });
  }
  return found;
}

/**
 * A proximity source's `maxRangeM` from the range its messages declare: a reading past it is then refused (a
 * driver's millimetres). One beyond any sensor's (scan-plausibility.ts) is left null to fill in, with why.
 */
function rangeEntry(declaredM: number | undefined): { value: string; note: string } {
  if (declaredM === undefined) return { value: '', note: '' };
  if (declaredM > MAX_PLAUSIBLE_RANGE_M) {
    return { value: ', maxRangeM: null', note: `; it declares a range of ${declaredM}: not metres?` };
  }
  // up to the millimetre above: a float32 range_max (5.599999904…) must not round below a reading it allows
  return { value: `, maxRangeM: ${Math.ceil(declaredM * 1000) / 1000}`, note: '' };
}

const roleName = (source: string) =>
  source
    .replace(/^[^A-Za-z]+/, '')
    .replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_m, c: string) => c.toUpperCase()) || 'source';
const qos = (reliable: boolean, depth: number) =>
  `{ reliability: ${reliable ? 'reliable' : 'best-effort'}, durability: volatile, depth: ${depth} }`;
const fixed = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : '-');

type TopicEntry = [string, { type: string; messages: number; logMs: number[] }];

/** Median and longest time between a topic's messages (log time), when it has two. */
function publishGaps(logMs: readonly number[]): { medianMs: number; maxMs: number } | undefined {
  const sorted = [...logMs].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((ms, i) => ms - sorted[i]!);
  if (gaps.length === 0) return undefined;
  gaps.sort((a, b) => a - b);
  return { medianMs: gaps[Math.floor(gaps.length / 2)]!, maxMs: gaps[gaps.length - 1]! };
}

/**
 * A source's `maxAgeMs` with what the recording says of it. The kind's usual age is offered, unless the topic came
 * more rarely than that: Nav2's AMCL publishes `/amcl_pose` on each filter update (median 617 ms apart, up to 4.4 s,
 * in a TurtleBot recording), so a 200 ms limit left the pose stale between messages and every drive vetoed. That
 * limit is then left `null`, with the gaps seen, for the user to choose (the skeleton guesses no limit).
 */
function maxAgeLine(defaultMs: number, logMs: readonly number[]): { value: string; note: string } {
  const gaps = publishGaps(logMs);
  if (!gaps) return { value: String(defaultMs), note: '' };
  const seen = `; a message every ${gaps.medianMs} ms (median), up to ${gaps.maxMs} ms apart`;
  if (gaps.medianMs <= defaultMs) return { value: String(defaultMs), note: seen };
  return {
    value: 'null',
    note: `${seen}: longer than the usual ${defaultMs} ms, so choose how old a frame the gates may trust`,
  };
}

/**
 * The sensor topics offered as sources. The gates read one pose source (compiled-profile.ts), in the zones' map frame. A Nav2 recording has two pose
 * topics — wheel odometry in `odom` and the localizer's `/amcl_pose` in `map` — and offering both made the
 * odom-frame one, first in the file, the pose the gates read: every message of it is refused (`wrong-frame`), so
 * every drive was vetoed for want of a pose while the map-frame pose went unread. A topic whose first message is in
 * an odometry frame is left out, and of the rest the first is offered; the others are listed with why. And a
 * JointState topic carrying the joints of the first one (a second arm of the same model under another namespace,
 * the same arm republished) is not offered: the gates refuse a joint two sources measure (gate-context.ts).
 */
function chooseSources(
  sensors: readonly TopicEntry[],
  found: Found,
): { sensors: TopicEntry[]; notOffered: { topic: string; type: string; why: string }[] } {
  const frames = found.poseFrames;
  const notOffered: { topic: string; type: string; why: string }[] = [];
  let chosen: string | undefined;
  const kept = sensors.filter(([topic, t]) => {
    if (t.type === ROS_TYPES.jointState) {
      const shared = (found.jointNames.get(topic) ?? []).filter((n) => found.joints.includes(n));
      if (topic === found.jointTopic || shared.length === 0) return true;
      notOffered.push({
        topic,
        type: t.type,
        why: `carries joints of ${found.jointTopic} (${shared.join(', ')}): another arm, or the same one republished; the gates take each joint from one source`,
      });
      return false;
    }
    if (!POSE_TYPES.has(t.type)) return true;
    const frame = frames.get(topic);
    const odometry = frame === undefined ? undefined : odometryFrameKind(frame);
    if (odometry !== undefined) {
      notOffered.push({
        topic,
        type: t.type,
        why: `is in ${odometry} (frame_id ${JSON.stringify(frame)}), which drifts from the map: the edge refuses it (wrong-frame) unless the role says frameId: ${frame}`,
      });
      return false;
    }
    if (chosen !== undefined) {
      notOffered.push({
        topic,
        type: t.type,
        why: `is another pose topic; ${chosen} was offered (choose one)`,
      });
      return false;
    }
    chosen = topic;
    return true;
  });
  return { sensors: kept, notOffered };
}

/** The skeleton as YAML text (comments say what was seen and what to fill in). */
export function profileSkeleton(found: Found, bag: string, robotId: string): string {
  const { sensors, notOffered } = chooseSources(
    [...found.topics].filter(([, t]) => SOURCE_OF_TYPE[t.type]),
    found,
  );
  const intents = [...found.topics].filter(([, t]) => INTENT_TYPES.includes(t.type));
  const kind =
    found.joints.length > 0 && !intents.some(([, t]) => BASE_INTENT_TYPES.has(t.type))
      ? 'arm'
      : 'mobile-base';
  const lines = [
    `# Profile skeleton from ${bag}. Every null is a limit to fill in; \`npx pentagate edge check\` lists them.`,
    'v: 1',
    `robotId: ${robotId}`,
    `kind: ${kind}`,
    '',
    'joints:',
  ];
  found.joints.forEach((name, i) => {
    lines.push(
      `  # ${name}: efforts seen up to ${fixed(found.maxEffortNm[i]!)} N·m, positions ${fixed(found.minPositionRad[i]!)} .. ${fixed(found.maxPositionRad[i]!)} rad`,
      `  - name: ${name}`,
      '    torqueLimitNm: null',
      '    velocityLimitRadS: null',
      '    positionLimitsRad: { min: null, max: null }',
      '    dh: { aM: null, dM: null, alphaRad: null, thetaOffsetRad: null }',
    );
  });
  if (found.joints.length === 0) lines[lines.length - 1] = 'joints: []';
  if (kind === 'mobile-base') {
    lines.push(
      'base: { footprintRadiusM: null, maxLinearMps: null, maxAngularRadS: null, massKg: null, rollingResistance: null, turnPowerWPerRadS: null }',
    );
  }
  lines.push(
    '',
    'keepOut: { minZoneThicknessM: null, zones: [] }',
    'risk:',
    '  operatingRadiusM: null',
    '  # ISO/TS 15066 speed and separation monitoring; with enabled: false the other values are still checked',
    '  ssm: { enabled: null, robotSpeedMps: null, reactionTimeS: null, stoppingTimeS: null, stoppingDistanceM: null, intrusionDistanceM: null, humanPositionUncertaintyM: null, robotPositionUncertaintyM: null }',
    'battery:',
    '  capacityWh: null',
    '  internalResistanceOhm: null',
    '  nominalVoltageV: null',
    '  minVoltageV: null',
    '  efficiency: null',
    '  idlePowerW: null',
    '  reserveWh: null',
    '  allocationsWh: { default: null }   # Wh a move may use, per move class',
    'consent: { highTorqueThresholdNm: null, safetyCriticalMoveClasses: [], timeoutMs: null }',
    'trust: { path: null }',
    'sensors: []',
    'command: { validForMs: null }',
    '',
    'sources:',
  );
  const sourceNames = uniqueSourceNames(
    sensors.map(([topic]) => topic),
    ['firmware'],
  );
  const named = sensors.map(([topic, t]) => ({
    topic,
    type: t.type,
    logMs: t.logMs,
    source: sourceNames.get(topic)!,
  }));
  for (const s of named) {
    const k = SOURCE_OF_TYPE[s.type]!;
    const age = maxAgeLine(k.maxAgeMs, s.logMs);
    const range = rangeEntry(found.declaredRangeM.get(s.topic));
    lines.push(
      `  - { name: ${s.source}, kind: ${k.kind}, maxAgeMs: ${age.value}${range.value} } # ${s.topic} [${s.type}]${age.note}${range.note}`,
    );
  }
  lines.push('  - { name: firmware, kind: firmware, maxAgeMs: 600000 }', '', 'topics:', '  ros2:');
  for (const s of named) lines.push(`    ${roleName(s.source)}: { name: ${s.topic}, qos: ${qos(false, 5)} }`);
  // One `intent` role (a second key would make the YAML invalid); other intent topics are listed to choose from.
  intents.forEach(([topic, t], i) => {
    const role = `${i === 0 ? '' : '# or '}intent`;
    lines.push(`    ${role}: { name: ${topic}, qos: ${qos(true, 10)} } # [${t.type}]`);
  });
  lines.push(`    cmd: { name: /pentagate/cmd, qos: ${qos(true, 10)} }`);
  lines.push(`    verdict: { name: /pentagate/verdict, qos: ${qos(true, 50)} }`);
  const overrides = [
    ...named.map((s) => ({ role: roleName(s.source), type: s.type })),
    ...intents.slice(0, 1).map(([, t]) => ({ role: 'intent', type: t.type })),
  ].filter((o) => !DEFAULT_TYPES.has(o.type));
  if (overrides.length > 0) {
    lines.push('', '# Roles whose type is not the default need a --bindings file for edge run, e.g.:');
    for (const o of overrides) {
      const wheelbase = o.type === ROS_TYPES.ackermannDriveStamped ? ', wheelbaseM: null' : '';
      lines.push(`#   ${o.role}: { type: ${o.type}${wheelbase} }`);
    }
  }
  if (notOffered.length > 0) {
    lines.push('', '# Sensor topics not offered as sources:');
    for (const p of notOffered) lines.push(`#   ${p.topic} [${p.type}] ${p.why}`);
  }
  const other = [...found.topics].filter(
    ([, t]) => !SOURCE_OF_TYPE[t.type] && !INTENT_TYPES.includes(t.type),
  );
  if (other.length > 0) {
    lines.push('', '# Topics in the recording the edge does not read:');
    for (const [topic, t] of other)
      lines.push(`#   ${topic} [${t.type}] ${t.messages} message${t.messages === 1 ? '' : 's'}`);
  }
  return `${lines.join('\n')}\n`;
}

export const profileInitCommand: Command = {
  path: ['edge', 'profile', 'init'],
  summary: 'Write a robot profile skeleton from a recording (joints, sources, topics) to fill in',
  usage: '--from-bag BAG --out FILE [--robot-id ID]',
  description: [
    'Reads the recording (MCAP, sqlite3 .db3 or a bag directory) and writes a profile skeleton: the joints of',
    'the first JointState (with the largest efforts and the position range seen, as comments), a telemetry',
    'source and a topics.ros2 role per sensor topic (best-effort), the intent topic, and cmd/verdict roles',
    '(reliable). Every limit is null: `pentagate edge check` names each one to fill in. --out is never',
    'overwritten. Exit codes: 0 written; 2 unreadable recording, existing --out, bad usage.',
  ].join('\n'),
  options: {
    'from-bag': { type: 'string', description: 'Recording (file or bag directory)', valueName: 'BAG' },
    out: { type: 'string', description: 'Profile to write (YAML; must not exist)', valueName: 'FILE' },
    'robot-id': { type: 'string', description: 'Robot id (default robot-01)', valueName: 'ID' },
  },
  async run(args, io) {
    const bag = requireOption(args, 'from-bag');
    const out = requireOption(args, 'out');
    const robotId = optionalString(args, 'robot-id') ?? 'robot-01';
    const found = await scan(bag);
    if (found.topics.size === 0) throw new UsageError(`--from-bag: ${bag} holds no messages`);
    await writeNewFile(out, profileSkeleton(found, bag, robotId));
    io.out(`wrote ${out}: ${found.joints.length} joints, ${found.topics.size} topics; fill in every null`);
    return ExitCode.ok;
  },
};
