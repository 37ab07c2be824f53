/**
 * `pentagate edge profile init --from-bag BAG`: a robot profile skeleton from a recording — the joints (names from
 * the first JointState, with the largest efforts and the position range seen, as comments), a telemetry source
 * and a ROS 2 role per sensor topic (sensor QoS best-effort, intents and commands reliable), the intent topic —
 * for the user to fill in the limits. Every limit is left `null`, so `pentagate edge check` names each one still
 * to fill in and the edge refuses to run on the skeleton: a guessed limit would be a limit nobody chose.
 */
import { type Command, ExitCode, UsageError, requireOption } from '@pentagate/protocol';
import { readRecording } from '../mcap/recording-reader.js';
import { INTENT_TYPES, ROS_TYPES } from '../ros/ros-types.js';
import { optionalString, writeNewFile } from './cli-values.js';
import { uniqueSourceNames } from './topic-source-names.js';

interface Found {
  topics: Map<string, { type: string; messages: number }>;
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
    joints: [],
    maxEffortNm: [],
    minPositionRad: [],
    maxPositionRad: [],
  };
  // Only joint states are read; every other topic is counted by type, its messages left undecoded.
  const wanted = (_topic: string, type: string) => type === ROS_TYPES.jointState;
  for await (const item of readRecording(bag, undefined, { wanted })) {
    const t = found.topics.get(item.topic) ?? { type: item.type, messages: 0 };
    t.messages += 1;
    found.topics.set(item.topic, t);
    if (item.kind !== 'message' || item.type !== ROS_TYPES.jointState) continue;
    const m = item.message as { name?: string[]; position?: ArrayLike<number>; effort?: ArrayLike<number> };
    if (found.joints.length === 0 && Array.isArray(m.name)) {
      found.joints = [...m.name];
      found.maxEffortNm = found.joints.map(() => 0);
      found.minPositionRad = found.joints.map(() => Number.POSITIVE_INFINITY);
      found.maxPositionRad = found.joints.map(() => Number.NEGATIVE_INFINITY);
    }
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

const roleName = (source: string) =>
  source
    .replace(/^[^A-Za-z]+/, '')
    .replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_m, c: string) => c.toUpperCase()) || 'source';
const qos = (reliable: boolean, depth: number) =>
  `{ reliability: ${reliable ? 'reliable' : 'best-effort'}, durability: volatile, depth: ${depth} }`;
const fixed = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : '-');

/** The skeleton as YAML text (comments say what was seen and what to fill in). */
export function profileSkeleton(found: Found, bag: string, robotId: string): string {
  const sensors = [...found.topics].filter(([, t]) => SOURCE_OF_TYPE[t.type]);
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
  const named = sensors.map(([topic, t]) => ({ topic, type: t.type, source: sourceNames.get(topic)! }));
  for (const s of named) {
    const k = SOURCE_OF_TYPE[s.type]!;
    lines.push(
      `  - { name: ${s.source}, kind: ${k.kind}, maxAgeMs: ${k.maxAgeMs} } # ${s.topic} [${s.type}]`,
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
