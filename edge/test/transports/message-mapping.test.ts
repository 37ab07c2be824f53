import { conforms, IntentSchema, TelemetryFrameSchema, VerdictEventSchema } from '@pentagate/protocol';
import t from 'tap';
import { bindRole, bindingForRecordedTopic, rosBindingsFromProfile } from '../../src/ros/ros-bindings.js';
import { RosMessageMapper } from '../../src/ros/message-mapping.js';
import {
  commandToRosString,
  verdictToDiagnosticArray,
  verdictToRosString,
} from '../../src/ros/ros-outputs.js';
import { T0, armIntent, armProfile, baseProfile, consent, feedHealthy, makeGate } from '../trap/fixtures.js';

const arm = armProfile();
const stamp = (ms: number) => ({ sec: Math.floor(ms / 1000), nanosec: (ms % 1000) * 1e6 });
const header = (ms = T0) => ({ stamp: stamp(ms), frame_id: 'base_link' });
const names = arm.joints.map((j) => j.name);

function mapper() {
  return new RosMessageMapper({ robotId: arm.robotId });
}

t.test('JointState becomes a joint-state frame with position, velocity and effort', async (t) => {
  const b = bindRole(arm, 'jointStates', '/joint_states', undefined);
  t.equal(b.type, 'sensor_msgs/msg/JointState');
  t.same(
    b.qos,
    { reliability: 'best-effort', durability: 'volatile', depth: 5 },
    'sensor-data QoS by default',
  );
  const m = mapper();
  const r = m.map(
    b,
    {
      header: header(T0 - 5),
      name: names,
      position: Float64Array.from([0, -1.57, 0, -1.57, 0, 0]),
      velocity: [0, 0, 0, 0, 0, 0.1],
      effort: [10, 40, 20, 2, 1, 0.5],
    },
    T0,
  );
  t.equal(r.kind, 'telemetry');
  if (r.kind !== 'telemetry') return;
  t.ok(conforms(TelemetryFrameSchema, r.frame));
  t.match(r.frame, {
    kind: 'joint-state',
    source: 'joint_states',
    seq: 1,
    stampMs: T0 - 5,
    robotId: 'ur5e-01',
  });
  if (r.frame.kind === 'joint-state') {
    t.same(r.frame.effortsNm, [10, 40, 20, 2, 1, 0.5]);
    t.same(r.frame.velocitiesRadS, [0, 0, 0, 0, 0, 0.1]);
  }
  const second = m.map(
    b,
    {
      header: header(T0),
      name: names,
      position: [0, 0, 0, 0, 0, 0],
      velocity: [0, 0, 0, 0, 0, 0],
      effort: [0, 0, 0, 0, 0, 0],
    },
    T0,
  );
  t.match(second, { kind: 'telemetry', frame: { seq: 2 } }, 'seq counts per source');
});

t.test(
  'JointState with NaN effort, a short effort array or wrong field types is a counted skip',
  async (t) => {
    const b = bindRole(arm, 'jointStates', '/joint_states', undefined);
    const m = mapper();
    const base = {
      header: header(),
      name: names,
      position: [0, 0, 0, 0, 0, 0],
      velocity: [0, 0, 0, 0, 0, 0],
    };
    t.match(m.map(b, { ...base, effort: [0, Number.NaN, 0, 0, 0, 0] }, T0), {
      kind: 'skip',
      reason: 'non-finite',
      detail: /effort\[1\]/,
    });
    t.match(m.map(b, { ...base, effort: [1, 2, 3] }, T0), {
      kind: 'skip',
      reason: 'missing-field',
      detail: /effort: expected 6 values \(one per joint\) or none, got 3/,
    });
    t.match(m.map(b, { ...base, position: [], effort: [] }, T0), {
      kind: 'skip',
      reason: 'missing-field',
      detail: /position: expected 6 values \(one per joint\), got 0/,
    });
    t.match(m.map(b, { ...base, effort: 'heavy' }, T0), { kind: 'skip', reason: 'wrong-type' });
    t.match(m.map(b, { ...base }, T0), { kind: 'skip', reason: 'missing-field' });
    t.match(m.map(b, 42, T0), { kind: 'skip', reason: 'wrong-type' });
    t.match(m.map(b, { ...base, effort: [0, 0, 0, 0, 0, 0] }, T0, 'sensor_msgs/msg/Imu'), {
      kind: 'skip',
      reason: 'wrong-type',
    });
    t.match(m.skipCounts(), { 'non-finite': 1, 'missing-field': 3, 'wrong-type': 3 });
  },
);

t.test(
  'JointState with empty velocity and effort (sensor_msgs/JointState: "each array may be empty")',
  async (t) => {
    const b = bindRole(arm, 'jointStates', '/joint_states', undefined);
    const r = mapper().map(
      b,
      { header: header(), name: names, position: [0, 1, 0, 0, 0, 0], velocity: [], effort: [] },
      T0,
    );
    t.match(r, {
      kind: 'telemetry',
      frame: { positionsRad: [0, 1, 0, 0, 0, 0], velocitiesRadS: [], effortsNm: [] },
    });
  },
);

t.test('header.stamp feeds staleness: stale, future, zero and backwards stamps are skipped', async (t) => {
  const b = bindRole(arm, 'jointStates', '/joint_states', undefined);
  const m = mapper();
  const msg = (ms: number) => ({
    header: header(ms),
    name: names,
    position: [0, 0, 0, 0, 0, 0],
    velocity: [0, 0, 0, 0, 0, 0],
    effort: [0, 0, 0, 0, 0, 0],
  });
  t.match(m.map(b, msg(T0 - 51), T0), {
    kind: 'skip',
    reason: 'stale-stamp',
    detail: /51 ms ago, source allows 50 ms/,
  });
  t.match(m.map(b, msg(T0 + 501), T0), { kind: 'skip', reason: 'future-stamp' });
  t.match(m.map(b, { ...msg(0), header: { stamp: { sec: 0, nanosec: 0 }, frame_id: '' } }, T0), {
    kind: 'skip',
    reason: 'unstamped',
  });
  t.match(
    m.map(b, msg(T0 - 3 * 86_400_000), T0),
    {
      kind: 'skip',
      reason: 'foreign-clock',
      detail:
        /3\.0 days before the edge's clock .*another clock \(an unsynchronized GPS receiver, a simulation\).*--ignore-stamps/,
    },
    'a days-old GPS stamp is named as another clock, not as a late message',
  );
  t.match(m.map(b, msg(T0 + 2 * 3_600_000), T0), {
    kind: 'skip',
    reason: 'foreign-clock',
    detail: /2\.0 h after/,
  });
  t.match(m.map(b, msg(T0), T0), { kind: 'telemetry' });
  t.match(m.map(b, msg(T0 - 10), T0), { kind: 'skip', reason: 'stamp-backwards' });
  const lax = new RosMessageMapper({ robotId: arm.robotId, checkStamps: false });
  t.match(
    lax.map(b, msg(5_000), T0),
    { kind: 'telemetry', frame: { stampMs: T0 } },
    'sim-time stamps pass when checks are off, restamped with the handler clock so the gates can age them',
  );
  t.match(m.map(b, { ...msg(T0), header: { stamp: { sec: 1, nanosec: 2e9 }, frame_id: '' } }, T0), {
    kind: 'skip',
    reason: 'wrong-type',
  });
});

t.test(
  'BatteryState: discharge current turns positive, NaN percentage falls back to charge/capacity',
  async (t) => {
    const b = bindRole(arm, 'battery', '/battery_state', undefined);
    t.equal(b.type, 'sensor_msgs/msg/BatteryState');
    const m = mapper();
    const msg = {
      header: header(),
      voltage: 47.5,
      current: -3.25,
      percentage: 0.8,
      temperature: 31,
      charge: Number.NaN,
      capacity: Number.NaN,
    };
    const r = m.map(b, msg, T0);
    t.match(r, {
      kind: 'telemetry',
      frame: { kind: 'battery', voltageV: 47.5, currentA: 3.25, stateOfCharge: 0.8, temperatureC: 31 },
    });
    if (r.kind === 'telemetry') t.ok(conforms(TelemetryFrameSchema, r.frame));
    const fallback = m.map(
      b,
      {
        ...msg,
        header: header(T0 + 1),
        percentage: Number.NaN,
        charge: 5,
        capacity: 10,
        temperature: Number.NaN,
      },
      T0 + 1,
    );
    t.match(fallback, { kind: 'telemetry', frame: { stateOfCharge: 0.5 } });
    if (fallback.kind === 'telemetry')
      t.notOk('temperatureC' in fallback.frame, 'unmeasured temperature is omitted');
    t.match(m.map(b, { ...msg, header: header(T0 + 2), percentage: Number.NaN }, T0 + 2), {
      kind: 'skip',
      reason: 'non-finite',
    });
    t.match(m.map(b, { ...msg, header: header(T0 + 3), voltage: Number.POSITIVE_INFINITY }, T0 + 3), {
      kind: 'skip',
      reason: 'non-finite',
    });
  },
);

t.test(
  'LaserScan: nearest return inside the sector; NaN, +Inf and out-of-range returns ignored (REP 117)',
  async (t) => {
    const b = bindRole(arm, 'proximityFront', '/scan_front', undefined, {
      sector: { minAngleRad: -0.5, maxAngleRad: 0.5 },
    });
    t.equal(b.type, 'sensor_msgs/msg/LaserScan');
    t.match(b.target, { kind: 'telemetry', source: 'proximity-front' });
    const m = mapper();
    const scan = (ranges: number[], ms = T0) => ({
      header: header(ms),
      angle_min: -1,
      angle_max: 1,
      angle_increment: 0.5,
      time_increment: 0,
      scan_time: 0.1,
      range_min: 0.1,
      range_max: 10,
      ranges: Float32Array.from(ranges),
      intensities: [],
    });
    // beams at -1, -0.5, 0, 0.5, 1 rad; the sector keeps -0.5..0.5
    const r = m.map(b, scan([0.2, Number.NaN, 0.05, 2.5, 0.3]), T0);
    t.match(
      r,
      { kind: 'telemetry', frame: { kind: 'proximity', nearestHumanM: 2.5, sectorRad: 0.5 } },
      'returns outside the sector and below range_min are ignored',
    );
    const clear = m.map(b, scan([0.2, Number.POSITIVE_INFINITY, Number.NaN, 20, 0.3], T0 + 1), T0 + 1);
    t.match(clear, { kind: 'telemetry', frame: { nearestHumanM: null } }, '+Inf means nothing within range');
    const tooClose = m.map(b, scan([5, 5, Number.NEGATIVE_INFINITY, 5, 5], T0 + 2), T0 + 2);
    t.match(
      tooClose,
      { kind: 'telemetry', frame: { nearestHumanM: 0 } },
      '-Inf (too close to measure) counts as a detection at 0 m',
    );
    t.match(m.map(b, scan([1, Number.NaN, Number.NaN, 99, 1], T0 + 3), T0 + 3), {
      kind: 'skip',
      reason: 'no-valid-return',
    });
    const rear = bindRole(arm, 'proximityRear', '/scan_rear', undefined, {
      sector: { minAngleRad: 2.5, maxAngleRad: -2.5 },
    });
    const wrapScan = {
      ...scan([], T0),
      angle_min: -Math.PI,
      angle_increment: Math.PI / 2,
      ranges: [1.5, 0.4, 0.3, 0.6],
    };
    t.match(
      mapper().map(rear, wrapScan, T0),
      { kind: 'telemetry', frame: { source: 'proximity-rear', nearestHumanM: 1.5 } },
      'a sector may straddle ±π',
    );
  },
);

t.test('Range: a reading, +Inf as clear, NaN as a skip', async (t) => {
  const b = bindRole(arm, 'proximityRear', '/range_rear', undefined, { type: 'sensor_msgs/msg/Range' });
  const m = mapper();
  const msg = (range: number, ms = T0) => ({
    header: header(ms),
    radiation_type: 1,
    field_of_view: 0.3,
    min_range: 0.05,
    max_range: 4,
    range,
  });
  t.match(m.map(b, msg(0.9), T0), {
    kind: 'telemetry',
    frame: { kind: 'proximity', source: 'proximity-rear', nearestHumanM: 0.9 },
  });
  t.match(m.map(b, msg(Number.POSITIVE_INFINITY, T0 + 1), T0 + 1), {
    kind: 'telemetry',
    frame: { nearestHumanM: null },
  });
  t.match(m.map(b, msg(Number.NaN, T0 + 2), T0 + 2), { kind: 'skip', reason: 'no-valid-return' });
});

t.test('PoseStamped becomes a pose frame', async (t) => {
  const base = baseProfile();
  const b = bindRole(base, 'pose', '/amcl_pose_stamped', undefined);
  const m = new RosMessageMapper({ robotId: base.robotId });
  const r = m.map(
    b,
    { header: header(), pose: { position: { x: 1, y: 2, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } } },
    T0,
  );
  t.match(r, {
    kind: 'telemetry',
    frame: { kind: 'pose', positionM: { x: 1, y: 2, z: 0 }, orientation: { w: 1 } },
  });
  if (r.kind === 'telemetry') t.ok(conforms(TelemetryFrameSchema, r.frame));
  t.match(
    m.map(
      b,
      {
        header: header(T0 + 1),
        pose: { position: { x: Number.NaN, y: 2, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } },
      },
      T0 + 1,
    ),
    { kind: 'skip', reason: 'non-finite' },
  );
});

t.test('a firmware report arrives as std_msgs/String JSON', async (t) => {
  const b = bindRole(arm, 'firmware', '/controller/firmware', undefined);
  t.equal(b.type, 'std_msgs/msg/String');
  const m = mapper();
  const r = m.map(b, { data: JSON.stringify({ imageSha256: 'a'.repeat(64), version: '5.11.1' }) }, T0);
  t.match(r, { kind: 'telemetry', frame: { kind: 'firmware', imageSha256: 'a'.repeat(64), stampMs: T0 } });
  t.match(m.map(b, { data: '{not json' }, T0 + 1), { kind: 'skip', reason: 'malformed' });
});

t.test('JointTrajectory becomes a joint-trajectory intent the gate accepts', async (t) => {
  const b = bindRole(arm, 'intent', '/pentagate/intent', undefined, { moveClass: 'pick' });
  t.equal(
    b.type,
    'trajectory_msgs/msg/JointTrajectory',
    'an arm profile reads trajectories on its intent topic',
  );
  t.same(b.qos.reliability, 'reliable');
  const want = armIntent();
  const msg = {
    header: header(),
    joint_names: want.jointNames,
    points: want.points.map((p) => ({
      positions: Float64Array.from(p.positionsRad),
      velocities: [],
      accelerations: [],
      effort: p.effortsNm ?? [],
      time_from_start: {
        sec: Math.floor(p.timeFromStartMs / 1000),
        nanosec: (p.timeFromStartMs % 1000) * 1e6,
      },
    })),
  };
  const r = mapper().map(b, msg, T0);
  t.equal(r.kind, 'intent');
  if (r.kind !== 'intent') return;
  t.ok(conforms(IntentSchema, r.intent));
  t.match(r.intent, {
    kind: 'joint-trajectory',
    moveClass: 'pick',
    robotId: 'ur5e-01',
    intentId: /^ros\.intent\./,
  });
  if (r.intent.kind === 'joint-trajectory') {
    t.same(
      r.intent.points.map((p) => p.timeFromStartMs),
      want.points.map((p) => p.timeFromStartMs),
    );
    t.notOk('velocitiesRadS' in r.intent.points[0]!, 'empty velocities are omitted');
  }
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  t.equal(gate.trapAndSign(r.intent, T0).kind, 'signed', 'the mapped intent is signed like the MQTT one');
  const nan = structuredClone(msg);
  nan.points[1]!.positions = Float64Array.from([0, Number.NaN, 0, 0, 0, 0]);
  t.match(mapper().map(b, nan, T0), {
    kind: 'skip',
    reason: 'non-finite',
    detail: /points\[1\]\.positions\[1\]/,
  });
});

t.test('Twist becomes a base-twist intent held for the configured duration', async (t) => {
  const base = baseProfile();
  const b = bindRole(base, 'intent', '/cmd_vel', undefined, { twistDurationMs: 250, moveClass: 'transit' });
  t.equal(b.type, 'geometry_msgs/msg/Twist', 'a mobile base reads twists on its intent topic');
  const m = new RosMessageMapper({ robotId: base.robotId });
  const r = m.map(b, { linear: { x: 0.5, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0.2 } }, T0);
  t.match(r, {
    kind: 'intent',
    intent: {
      kind: 'base-twist',
      durationMs: 250,
      moveClass: 'transit',
      linearMps: { x: 0.5 },
      angularRadS: { z: 0.2 },
    },
  });
  if (r.kind === 'intent') t.ok(conforms(IntentSchema, r.intent));
  t.match(
    m.map(b, { linear: { x: Number.POSITIVE_INFINITY, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } }, T0),
    { kind: 'skip', reason: 'non-finite' },
  );
});

t.test('std_msgs/String on the consent role carries a DSSE envelope to submitConsent', async (t) => {
  const b = bindRole(arm, 'consent', '/pentagate/consent', undefined);
  const env = consent(armIntent());
  const r = mapper().map(b, { data: JSON.stringify(env) }, T0);
  t.match(r, { kind: 'consent', envelope: { payloadType: env.payloadType } });
  t.match(mapper().map(b, { data: 7 }, T0), { kind: 'skip', reason: 'wrong-type' });
});

t.test(
  'verdicts go out as canonical JSON strings and as a DiagnosticArray with one status per gate',
  async (t) => {
    const { gate, profile } = makeGate();
    feedHealthy(gate, profile, T0, 0.1);
    const r = gate.trapAndSign(armIntent(), T0);
    t.equal(r.kind, 'veto');
    const s = verdictToRosString(r.verdict);
    t.ok(conforms(VerdictEventSchema, JSON.parse(s.data)));
    const d = verdictToDiagnosticArray(r.verdict) as {
      header: { stamp: { sec: number } };
      status: { name: string; level: number; message: string; values: { key: string }[] }[];
    };
    t.equal(d.header.stamp.sec, Math.floor(T0 / 1000));
    t.equal(d.status.length, 5);
    const risk = d.status.find((x) => x.name === 'pentagate/ur5e-01/RISK')!;
    t.equal(risk.level, 2);
    t.match(risk.message, /^RISK\./);
    t.ok(risk.values.some((v) => v.key === 'outcome'));
    t.equal(d.status.find((x) => x.name.endsWith('/PROVENANCE'))!.level, 0);
    const rejected = gate.trapAndSign({ nonsense: true }, T0);
    const dr = verdictToDiagnosticArray(rejected.verdict) as {
      status: { name: string; level: number; message: string }[];
    };
    t.match(dr.status, [{ name: 'pentagate/ur5e-01/verdict', level: 2, message: /INPUT\.INTENT_INVALID/ }]);
    const stop = gate.protectiveStop('test', T0);
    t.same(JSON.parse(commandToRosString(stop).data), stop);
  },
);

t.test(
  'bindings from the profile: roles name topics and QoS; unbound roles are refused clearly',
  async (t) => {
    const p = armProfile((p) => {
      p.topics = {
        ros2: {
          intent: {
            name: '/pentagate/intent',
            qos: { reliability: 'reliable', durability: 'volatile', depth: 10 },
          },
          jointStates: {
            name: '/joint_states',
            qos: { reliability: 'best-effort', durability: 'volatile', depth: 5 },
          },
          proximityFront: {
            name: '/scan',
            qos: { reliability: 'best-effort', durability: 'volatile', depth: 5 },
          },
          verdict: {
            name: '/pentagate/verdict',
            qos: { reliability: 'reliable', durability: 'transient-local', depth: 50 },
          },
          diagnostics: {
            name: '/diagnostics',
            qos: { reliability: 'reliable', durability: 'volatile', depth: 10 },
          },
        },
      };
    });
    const bindings = rosBindingsFromProfile(p, {
      proximityFront: { sector: { minAngleRad: -1, maxAngleRad: 1 } },
    });
    t.same(
      bindings.inputs.map((b) => [b.role, b.type]),
      [
        ['intent', 'trajectory_msgs/msg/JointTrajectory'],
        ['jointStates', 'sensor_msgs/msg/JointState'],
        ['proximityFront', 'sensor_msgs/msg/LaserScan'],
      ],
    );
    t.same(
      bindings.outputs.map((o) => [o.role, o.type, o.qos.durability]),
      [
        ['verdict', 'std_msgs/msg/String', 'transient-local'],
        ['diagnostics', 'diagnostic_msgs/msg/DiagnosticArray', 'volatile'],
      ],
    );
    // The example profile used to carry this mistake (a bare "proximity" role beside proximity-front and
    // proximity-rear); it is fixed there, so the refusal is checked on a profile that still has it.
    const bare = armProfile((q) => {
      q.topics = {
        ros2: { proximity: { name: '/safety/proximity', qos: p.topics!.ros2!.proximityFront!.qos } },
      };
    });
    t.throws(
      () => rosBindingsFromProfile(bare),
      { code: 'ROS2_BINDING_INVALID', message: /role proximity: no telemetry source is named like it/ },
      'a "proximity" role names no single source when there are proximity-front and proximity-rear',
    );
    t.throws(() => rosBindingsFromProfile(p, { nowhere: {} }), {
      message: /nowhere: has an override but no topic/,
    });
    t.throws(() => bindRole(arm, 'jointStates', '/j', undefined, { type: 'sensor_msgs/msg/Range' }), {
      message: /carries joint-state frames/,
    });
    t.throws(() => bindRole(arm, 'intent', '/i', undefined, { type: 'std_msgs/msg/String' }), {
      message: /intents are/,
    });
    t.throws(() => bindRole(arm, 'x', '/x', undefined, { source: 'nope' }), {
      message: /source nope is not in the profile/,
    });
    t.throws(() => bindRole(arm, 'consent', '/c', undefined, { type: 'sensor_msgs/msg/Range' }), {
      message: /consent arrives as/,
    });
    t.throws(
      () =>
        bindRole(arm, 'proximityFront', '/s', undefined, {
          sector: { minAngleRad: Number.NaN, maxAngleRad: 0 },
        }),
      { message: /sector: expected finite/ },
    );
    t.throws(
      () =>
        rosBindingsFromProfile(
          armProfile((p) => {
            p.topics = { ros2: {} };
          }),
        ),
      { message: /names no input topic/ },
    );
  },
);

t.test(
  'recorded topics bind by profile role, by topic name, or by the only source of their kind',
  async (t) => {
    const p = armProfile();
    t.match(bindingForRecordedTopic(p, '/joint_states', 'sensor_msgs/msg/JointState'), {
      role: 'jointStates',
      target: { source: 'joint_states' },
    });
    t.match(bindingForRecordedTopic(p, '/robot/battery', 'sensor_msgs/msg/BatteryState'), {
      role: 'battery',
      target: { source: 'battery' },
    });
    t.match(bindingForRecordedTopic(p, '/planner/trajectory', 'trajectory_msgs/msg/JointTrajectory'), {
      target: { kind: 'intent' },
    });
    t.match(
      bindingForRecordedTopic(p, '/safety/proximity', 'sensor_msgs/msg/LaserScan'),
      { unbound: /no telemetry source/ },
      'two proximity sources: the recording must say which',
    );
    t.match(bindingForRecordedTopic(baseProfile(), '/scan', 'sensor_msgs/msg/LaserScan'), {
      target: { source: 'proximity-360' },
    });
    t.match(bindingForRecordedTopic(p, '/pentagate/verdict', 'std_msgs/msg/String'), { unbound: /output/ });
    t.match(bindingForRecordedTopic(p, '/tf', 'tf2_msgs/msg/TFMessage'), { unbound: /tf/ });
  },
);
