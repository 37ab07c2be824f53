/**
 * Each gate: passes on healthy data, fails on a broken rule, fails closed on stale or missing data.
 * Driven through the EdgeGate with real signed provenance and the example profiles.
 */
import {
  MemorySequenceStore,
  REANCHOR_FRAMES,
  SEQ_MAX_GAP,
  TelemetryStore,
  maxSpeedScaleFor,
  protectiveSeparationDistanceM,
  runGate,
} from '@pentagate/edge';
import type { GateResult, TelemetryFrame, VerdictEvent } from '@pentagate/protocol';
import t from 'tap';
import {
  HOME,
  T0,
  armIntent,
  armProfile,
  baseIntent,
  baseProfile,
  battery,
  calibration,
  feedHealthy,
  firmware,
  jointState,
  makeGate,
  pose,
  proximity,
} from '../trap/fixtures.js';

const gateOf = (v: VerdictEvent, vertex: string): GateResult => v.gates.find((g) => g.vertex === vertex)!;

t.test('INVARIANT', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  t.equal(gateOf(gate.trapAndSign(armIntent(), T0).verdict, 'INVARIANT').passed, true, 'passes a clear move');

  const heavy = armIntent();
  heavy.points[0]!.effortsNm = [20, 60, 30, 40, 2, 1];
  t.match(gateOf(gate.trapAndSign(heavy, T0).verdict, 'INVARIANT').violations, [
    /^INVARIANT\.PLANNED_TORQUE: wrist_1_joint at point 0 plans 40\.0 N·m > limit 28\.0 N·m/,
  ]);
  // Just over the limit, the printed effort and limit differ ("28.0 N·m > limit 28.0 N·m" reads as no breach).
  heavy.points[0]!.effortsNm = [20, 60, 30, 28.04, 2, 1];
  t.match(gateOf(gate.trapAndSign(heavy, T0).verdict, 'INVARIANT').violations, [
    /^INVARIANT\.PLANNED_TORQUE: wrist_1_joint at point 0 plans 28\.04 N·m > limit 28\.00 N·m/,
  ]);

  gate.ingestTelemetry(jointState(profile, T0, HOME, [10, 160, 20, 2, 1, 0.5]), T0);
  t.match(
    gateOf(gate.trapAndSign(armIntent(), T0).verdict, 'INVARIANT').violations[0],
    /^INVARIANT\.MEASURED_TORQUE: shoulder_lift_joint measured 160\.0/,
  );
  gate.ingestTelemetry(jointState(profile, T0), T0);

  // Shoulder lift from -π/2 to +0.6 rad swings the upright arm back and down, through the wall behind it.
  const down = armIntent({
    points: [{ positionsRad: [0, 0.6, 0, -Math.PI / 2, 0, 0], timeFromStartMs: 2000 }],
  });
  t.match(
    gateOf(gate.trapAndSign(down, T0).verdict, 'INVARIANT').violations.join('\n'),
    /INVARIANT\.KEEP_OUT_PATH: frame \d enters zone (wall-behind|table-top) at \(/,
  );

  const fast = armIntent({
    points: [{ positionsRad: HOME.map((q, i) => (i === 0 ? q + 1 : q)), timeFromStartMs: 100 }],
  });
  t.match(
    gateOf(gate.trapAndSign(fast, T0).verdict, 'INVARIANT').violations.join('\n'),
    /INVARIANT\.VELOCITY_LIMIT: shoulder_pan_joint/,
  );

  const far = armIntent({
    points: [{ positionsRad: HOME.map((q, i) => (i === 2 ? 4 : q)), timeFromStartMs: 5000 }],
  });
  t.match(
    gateOf(gate.trapAndSign(far, T0).verdict, 'INVARIANT').violations.join('\n'),
    /INVARIANT\.POSITION_LIMIT: elbow_joint waypoint 1 at 4\.000 rad/,
  );

  t.match(
    gateOf(gate.trapAndSign(armIntent(), T0 + 51).verdict, 'INVARIANT').violations[0],
    /^INVARIANT\.STALE_DATA: joint-state\/joint_states .* > maxAgeMs 50/,
  );
  const fresh = makeGate();
  t.match(
    gateOf(fresh.gate.trapAndSign(armIntent(), T0).verdict, 'INVARIANT').violations[0],
    /^INVARIANT\.MISSING_DATA: no joint-state frame/,
  );
});

t.test('INVARIANT: a robot inside a zone may only leave it', async (t) => {
  const profile = armProfile((p) => {
    p.keepOut.zones.push({
      id: 'around-flange',
      shape: 'sphere',
      centerM: { x: 0, y: -0.2329, z: 1.0 },
      radiusM: 0.1,
    });
  });
  const { gate } = makeGate(profile);
  feedHealthy(gate, profile);
  const inside = armIntent({
    points: [{ positionsRad: HOME.map((q, i) => (i === 0 ? q + 0.01 : q)), timeFromStartMs: 1000 }],
  });
  t.match(
    gateOf(gate.trapAndSign(inside, T0).verdict, 'INVARIANT').violations.join('\n'),
    /KEEP_OUT_NOT_LEFT: .*around-flange/,
  );
  const leave = armIntent({
    points: [{ positionsRad: HOME.map((q, i) => (i === 1 ? q + 0.6 : q)), timeFromStartMs: 2000 }],
  });
  t.equal(gateOf(gate.trapAndSign(leave, T0).verdict, 'INVARIANT').passed, true);
});

t.test('INVARIANT for a mobile base: pose + twist integration', async (t) => {
  const { gate, profile } = makeGate(baseProfile());
  feedHealthy(gate, profile);
  t.equal(gate.trapAndSign(baseIntent(), T0).kind, 'signed');
  // From x = 5 heading +x at 1 m/s for 6 s: the base reaches the pillar at x = 10.
  const intoPillar = baseIntent({ linearMps: { x: 1, y: 0, z: 0 }, durationMs: 6000 });
  t.match(
    gateOf(gate.trapAndSign(intoPillar, T0).verdict, 'INVARIANT').violations[0],
    /^INVARIANT\.KEEP_OUT_PATH: base enters zone pillar-1/,
  );
  // Turning left towards shelf row A (y = 2) while driving.
  gate.ingestTelemetry(pose(profile.robotId, T0, 5, 0, Math.PI / 2), T0);
  t.match(
    gateOf(gate.trapAndSign(baseIntent({ durationMs: 4000 }), T0).verdict, 'INVARIANT').violations[0],
    /shelf-row-a/,
  );
  t.match(
    gateOf(
      gate.trapAndSign(baseIntent({ linearMps: { x: 3, y: 0, z: 0 } }), T0).verdict,
      'INVARIANT',
    ).violations.join(),
    /VELOCITY_LIMIT: linear 3\.000 m\/s/,
  );
  t.match(
    gateOf(gate.trapAndSign(baseIntent(), T0 + 200).verdict, 'INVARIANT').violations[0],
    /^INVARIANT\.STALE_DATA: pose\/pose/,
  );
});

t.test('RISK', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile, T0, 3);
  t.equal(gateOf(gate.trapAndSign(armIntent(), T0).verdict, 'RISK').passed, true, 'human far away');
  // Inside the operating radius: a veto, never a speed cap (S_p(min scale) < 0.8 m < S_p(full) < radius).
  gate.ingestTelemetry(proximity(profile.robotId, 'proximity-front', T0, 0.8), T0);
  const inside = gate.trapAndSign(armIntent(), T0);
  t.equal(inside.kind, 'veto');
  t.match(gateOf(inside.verdict, 'RISK').violations, [
    /^RISK\.HUMAN_IN_RADIUS: human at 0\.80 m < radius 1\.20 m/,
  ]);
  t.equal(gateOf(inside.verdict, 'RISK').evidence.speedScale, 0);
  // Just inside the radius, the printed distance and radius differ ("1.20 m < radius 1.20 m" reads as no breach).
  gate.ingestTelemetry(proximity(profile.robotId, 'proximity-front', T0, 1.197), T0);
  t.match(gateOf(gate.trapAndSign(armIntent(), T0).verdict, 'RISK').violations, [
    /^RISK\.HUMAN_IN_RADIUS: human at 1\.197 m < radius 1\.200 m/,
  ]);
  t.match(
    gateOf(gate.trapAndSign(armIntent(), T0 + 101).verdict, 'RISK').violations[0],
    /^RISK\.STALE_DATA: proximity\/proximity-front/,
  );

  const base = makeGate(baseProfile());
  feedHealthy(base.gate, base.profile, T0, 0.62);
  t.match(
    gateOf(base.gate.trapAndSign(baseIntent(), T0).verdict, 'RISK').violations[0],
    /^RISK\.HUMAN_IN_RADIUS: human at 0\.62 m < radius 1\.50 m \(proximity\/proximity-360 seq \d+, 0 ms old\)/,
  );
  const empty = makeGate();
  t.match(
    gateOf(empty.gate.trapAndSign(armIntent(), T0).verdict, 'RISK').violations[0],
    /^RISK\.MISSING_DATA/,
  );
  t.equal(maxSpeedScaleFor({ humanSpeedMps: 1.6, ssm: profile.risk.ssm }, 0.1), undefined);
});

t.test('RISK caps the speed for a human outside the radius but inside S_p', async (t) => {
  const { gate, profile } = makeGate(
    armProfile((p) => {
      p.risk.operatingRadiusM = 0.45;
    }),
  );
  feedHealthy(gate, profile, T0, 3);
  gate.ingestTelemetry(proximity(profile.robotId, 'proximity-front', T0, 0.8), T0);
  // 0.4 rad of the base joint in 0.5 s: 0.8 rad/s, fast enough at this reach to need a cap at 0.8 m.
  const fast = armIntent({
    points: [
      {
        positionsRad: HOME.map((q, i) => (i === 0 ? q + 0.4 : q)),
        effortsNm: [20, 60, 30, 5, 2, 1],
        timeFromStartMs: 500,
      },
    ],
  });
  // The default move peaks at half that speed: S_p for it fits in 0.8 m, so it runs uncapped. (With one
  // constant robot speed of 1 m/s for every motion, both would have been capped alike.)
  const slow = gate.trapAndSign(armIntent(), T0);
  t.equal(slow.kind, 'signed');
  t.equal(gateOf(slow.verdict, 'RISK').evidence.speedScale, 1, 'a slow plan is not capped');
  const capped = gate.trapAndSign(fast, T0);
  t.equal(capped.kind, 'signed');
  const risk = gateOf(capped.verdict, 'RISK');
  const peakMps = risk.evidence.planPeakSpeedMps as number;
  const f = peakMps / profile.risk.ssm.robotSpeedMps;
  if (capped.kind === 'signed' && capped.command.setpoints.kind === 'joint') {
    const k = capped.command.setpoints.speedScale!;
    t.ok(k > 0.1 && k < 1, `speed cap ${k} for a plan peaking at ${peakMps.toFixed(2)} m/s`);
    const terms = { humanSpeedMps: 1.6, ssm: profile.risk.ssm };
    t.ok(protectiveSeparationDistanceM(terms, f * k) <= 0.8);
    t.ok(protectiveSeparationDistanceM(terms, f * (k + 0.01)) > 0.8, 'the cap is the largest that fits');
    t.equal(capped.verdict.speedScale, k);
  }
  gate.ingestTelemetry(proximity(profile.robotId, 'proximity-front', T0, 0.47), T0);
  t.match(
    gateOf(gate.trapAndSign({ ...fast, intentId: 'int-fast-again' }, T0).verdict, 'RISK').violations[0],
    /^RISK\.SEPARATION: human at 0\.47 m < S_p .* \(plan peak \d+\.\d+ m\/s/,
  );
});

t.test('ECONOMY', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  t.equal(gateOf(gate.trapAndSign(armIntent(), T0).verdict, 'ECONOMY').passed, true);
  gate.ingestTelemetry(battery(profile.robotId, T0, { stateOfCharge: 0.1 }), T0);
  t.match(
    gateOf(gate.trapAndSign(armIntent(), T0).verdict, 'ECONOMY').violations[0],
    /^ECONOMY\.RESERVE: 50\.00 Wh available/,
  );
  gate.ingestTelemetry(battery(profile.robotId, T0, { voltageV: 40.5, currentA: 15 }), T0);
  t.match(
    gateOf(gate.trapAndSign(armIntent(), T0).verdict, 'ECONOMY').violations[0],
    /^ECONOMY\.VOLTAGE_SAG/,
  );
  gate.ingestTelemetry(battery(profile.robotId, T0), T0);
  const long = armIntent({
    moveClass: 'pick',
    points: [{ positionsRad: HOME.map((q, i) => (i === 0 ? q + 0.2 : q)), timeFromStartMs: 100_000 }],
  });
  t.match(
    gateOf(gate.trapAndSign(long, T0).verdict, 'ECONOMY').violations[0],
    /^ECONOMY\.OVER_ALLOCATION: move needs 1\.\d+ Wh > pick allocation 1\.000 Wh/,
  );
  for (const moveClass of ['juggling', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
    const verdict = gate.trapAndSign(armIntent({ moveClass }), T0).verdict;
    t.match(
      gateOf(verdict, 'ECONOMY').violations[0],
      /^ECONOMY\.NO_ALLOCATION/,
      `${moveClass}: no allocation (a prototype member is not one)`,
    );
    t.equal(verdict.outcome, 'vetoed', `${moveClass}: vetoed`);
  }
  t.match(
    gateOf(gate.trapAndSign(armIntent(), T0 + 2001).verdict, 'ECONOMY').violations.join(),
    /ECONOMY\.STALE_DATA: battery\/battery/,
  );
});

t.test('PROVENANCE', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  const ok = gateOf(gate.trapAndSign(armIntent(), T0).verdict, 'PROVENANCE');
  t.equal(ok.passed, true);
  t.match(ok.evidence, { firmware: { version: '5.11.1' } });
  gate.ingestTelemetry(firmware(profile.robotId, T0, 'c'.repeat(64)), T0);
  t.match(
    gateOf(gate.trapAndSign(armIntent(), T0).verdict, 'PROVENANCE').violations[0],
    /^PROVENANCE\.FIRMWARE_UNSIGNED: controller reports firmware cccc/,
  );
  // Certificates expire; after that the gate refuses.
  gate.ingestTelemetry(firmware(profile.robotId, T0 + 86_400_000), T0 + 86_400_000);
  t.match(
    gateOf(gate.trapAndSign(armIntent(), T0 + 86_400_000).verdict, 'PROVENANCE').violations.join(),
    /PROVENANCE\.CALIBRATION_EXPIRED: sensor lidar-front/,
  );
  // Missing and forged documents.
  const bare = makeGate(armProfile(), new MemorySequenceStore());
  const report = bare.gate.loadProvenance(
    {
      calibrationCertificates: [
        calibration('ur5e-01', 'lidar-front', T0 + 1000, (await import('../trap/fixtures.js')).operator),
      ],
    },
    T0,
  );
  t.equal(report.rejected.length, 1, 'a certificate signed by an operator key is refused');
  const noDocs = new (await import('@pentagate/edge')).EdgeGate({
    profile: armProfile(),
    trust: (await import('../trap/fixtures.js')).trust,
    hmacKey: (await import('../trap/fixtures.js')).hmacKey,
    sequence: new MemorySequenceStore(),
    clock: () => T0,
  });
  feedHealthy(noDocs, armProfile());
  const v = gateOf(noDocs.trapAndSign(armIntent(), T0).verdict, 'PROVENANCE').violations.join('\n');
  t.match(v, /PROVENANCE\.FIRMWARE_UNSIGNED/);
  t.match(v, /PROVENANCE\.CALIBRATION_MISSING: sensor lidar-rear/);
  t.match(
    gateOf(gate.trapAndSign(armIntent(), T0 + 700_000).verdict, 'PROVENANCE').violations[0],
    /^PROVENANCE\.STALE_DATA: firmware\/firmware/,
  );
});

t.test(
  'CONSENT: high torque, safety-critical flag and class; missing efforts assume the limit',
  async (t) => {
    const { gate, profile } = makeGate();
    feedHealthy(gate, profile);
    t.equal(gateOf(gate.trapAndSign(armIntent(), T0).verdict, 'CONSENT').passed, true);
    const strong = armIntent();
    strong.points[1]!.effortsNm = [20, 130, 30, 5, 2, 1];
    t.match(
      gateOf(gate.trapAndSign(strong, T0).verdict, 'CONSENT').violations[0],
      /^CONSENT\.REQUIRED: high-torque consent needed: peak effort 130\.0 N·m > threshold 120\.0 N·m/,
    );
    const noEfforts = armIntent({ points: [{ positionsRad: HOME, timeFromStartMs: 500 }] });
    t.match(
      gateOf(gate.trapAndSign(noEfforts, T0).verdict, 'CONSENT').violations[0],
      /torque limits assumed/,
    );
    t.match(
      gateOf(gate.trapAndSign(armIntent({ moveClass: 'tool-change' }), T0).verdict, 'CONSENT').violations[0],
      /move class tool-change is safety-critical/,
    );
  },
);

t.test('a gate that throws fails closed', async (t) => {
  const r = runGate(
    'RISK',
    () => {
      throw new Error('sensor driver exploded');
    },
    {} as never,
  );
  t.same(r, {
    vertex: 'RISK',
    passed: false,
    violations: ['RISK.GATE_ERROR: sensor driver exploded'],
    evidence: {},
  });
});

t.test('telemetry store refuses and counts bad frames by reason', async (t) => {
  const profile = armProfile();
  const store = new TelemetryStore(profile);
  const js = jointState(profile, T0);
  t.equal(store.ingest(js, T0).accepted, true);
  t.match(store.ingest(js, T0), { accepted: false, reason: 'duplicate' }, 'a redelivered copy');
  t.match(store.ingest({ ...js, seq: js.seq + 1, positionsRad: [Number.NaN, 0, 0, 0, 0, 0] }, T0), {
    accepted: false,
    reason: 'out-of-range',
  });
  t.match(store.ingest({ ...js, seq: js.seq + 2, positionsRad: [0] }, T0), {
    accepted: false,
    reason: 'out-of-range',
  });
  t.match(store.ingest({ ...js, seq: js.seq + 3, names: ['a', 'b', 'c', 'd', 'e', 'f'] }, T0), {
    accepted: false,
    reason: 'out-of-range',
  });
  t.match(store.ingest({ ...proximity(profile.robotId, 'nowhere', T0, 1) }, T0), {
    accepted: false,
    reason: 'unknown-source',
  });
  t.match(store.ingest({ ...proximity(profile.robotId, 'battery', T0, 1) }, T0), {
    accepted: false,
    reason: 'wrong-kind',
  });
  t.match(store.ingest(proximity('other', 'proximity-front', T0, 1), T0), {
    accepted: false,
    reason: 'wrong-robot',
  });
  t.match(store.ingest({ v: 1 }, T0), { accepted: false, reason: 'malformed' });
  const base = new TelemetryStore(baseProfile());
  const p = pose('amr-07', T0);
  t.match(base.ingest({ ...p, orientation: { x: 0, y: 0, z: 0.5, w: 0.5 } }, T0), {
    accepted: false,
    reason: 'out-of-range',
  });
  t.same(store.rejectionCounts(), {
    malformed: 1,
    'wrong-robot': 1,
    'unknown-source': 1,
    'wrong-kind': 1,
    'out-of-range': 3,
    'out-of-order': 0,
    duplicate: 1,
    unauthenticated: 0,
  });
  // the NaN frame withdrew the joint states (an unusable frame of a live source, telemetry-store.ts); the
  // frame naming none of the profile's joints is another part's and would have withdrawn nothing
  t.equal(store.lookup('joint_states', T0).status, 'missing', 'an unusable frame withdraws its source');
  t.equal(store.ingest({ ...js, seq: js.seq + 4 }, T0).accepted, true, 'the next usable frame is taken');
  t.equal(store.lookup('joint_states', T0 + 50).status, 'fresh');
  t.equal(store.lookup('joint_states', T0 + 51).status, 'stale');
  t.equal(store.lookup('battery', T0).status, 'missing');
});

t.test(
  'a frame that was already old on arrival is aged from its source stamp, not from its arrival',
  async (t) => {
    const profile = armProfile();
    const store = new TelemetryStore(profile);
    // joint_states allows 50 ms. Stamped 40 ms before it arrived: 20 ms after arrival it is 60 ms old.
    // Aged from arrival alone it would pass as 20 ms old and could be trusted until 50 ms after arrival
    // (90 ms after the sensor saw the arm).
    t.equal(store.ingest(jointState(profile, T0 - 40), T0).accepted, true);
    t.equal(store.lookup('joint_states', T0 + 10).status, 'fresh', '50 ms after the stamp: still fresh');
    t.match(store.lookup('joint_states', T0 + 20), { status: 'stale', ageMs: 60, maxAgeMs: 50 });
    // A stamp ahead of the arrival (a fast source clock) is clamped to the arrival: no extra life.
    t.equal(store.ingest(jointState(profile, T0 + 5_000), T0 + 100).accepted, true);
    t.match(store.lookup('joint_states', T0 + 150), { status: 'fresh', ageMs: 50 });
    t.match(store.lookup('joint_states', T0 + 151), { status: 'stale', ageMs: 51 });
  },
);

t.test('RISK vetoes on a proximity frame that arrived fresh but was stamped too long ago', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  t.equal(gate.trapAndSign(armIntent(), T0).kind, 'signed', 'healthy baseline signs');
  // proximity-front allows 100 ms: stamped 90 ms before arrival, decided on 20 ms after arrival.
  gate.ingestTelemetry(proximity(profile.robotId, 'proximity-front', T0 - 90, null), T0);
  gate.ingestTelemetry(jointState(profile, T0 + 20), T0 + 20);
  const r = gate.trapAndSign(armIntent(), T0 + 20);
  t.equal(r.kind, 'veto');
  t.match(gateOf(r.verdict, 'RISK').violations, [
    /^RISK\.STALE_DATA: proximity\/proximity-front seq \d+ is 110 ms old > maxAgeMs 100/,
  ]);
});

t.test('a duplicated joint name is refused like the schema says, at ingest and in an intent', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  const frame = jointState(profile, T0 + 1) as Extract<TelemetryFrame, { kind: 'joint-state' }>;
  frame.names = [...frame.names.slice(0, 5), frame.names[0]!];
  const refused = gate.ingestTelemetry(frame, T0 + 1);
  t.equal(refused.accepted, false);
  t.match(refused.verdict?.violations[0], /^INPUT\.TELEMETRY_MALFORMED: .*names.*(unique|duplicate)/i);
  const intent = armIntent();
  intent.jointNames = [...intent.jointNames.slice(0, 5), intent.jointNames[0]!];
  const r = gate.trapAndSign(intent, T0);
  t.equal(r.kind, 'veto');
  t.match(r.verdict.violations[0], /^INPUT\.INTENT_INVALID: \/jointNames: .*(unique|duplicate)/i);
});

t.test('a seq discontinuity makes the source stale until a consistent run re-anchors it', async (t) => {
  const profile = armProfile();
  const store = new TelemetryStore(profile);
  const maxAgeMs = profile.sources.find((s) => s.name === 'proximity-front')!.maxAgeMs;
  const periodMs = 40; // a 25 Hz sensor: a frame well within every maxAgeMs
  let now = T0;
  const at = (seq: number, humanM: number | null) => ({
    ...proximity(profile.robotId, 'proximity-front', now, humanM),
    seq,
  });
  /** The real sensor's frames, one per period from `seq`, until one is taken; returns how many it took. */
  const untilTaken = (seq: number, humanM: number) => {
    for (let i = 0; i < 50; i++) {
      now += periodMs;
      if (store.ingest(at(seq + i, humanM), now).accepted) return { frames: i + 1, lastSeq: seq + i };
    }
    throw new Error('never re-anchored');
  };
  t.equal(store.ingest(at(10, 3), now).accepted, true, 'the first frame anchors the source');
  for (let seq = 11; seq <= 13; seq++) {
    now += periodMs;
    t.equal(store.ingest(at(seq, 3), now).accepted, true, `seq ${seq}: taken (its period goes on record)`);
  }
  // A forged jump: refused, and the real latest frame is withdrawn (stale), never replaced by "nobody".
  now += 1;
  t.match(store.ingest(at(1e12, null), now), { accepted: false, reason: 'out-of-order', withdrawn: true });
  t.match(store.lookup('proximity-front', now), { status: 'resync', framesNeeded: REANCHOR_FRAMES - 1 });
  // The real sensor goes on; its frames break the forged run and form their own, taken once they span maxAgeMs.
  const back = untilTaken(14, 0.5);
  t.ok(back.frames >= REANCHOR_FRAMES, `${back.frames} frames before the real sensor is taken again`);
  t.ok((back.frames - 1) * periodMs >= 1.5 * periodMs, 'and they spanned 1.5 of its periods');
  t.ok((back.frames - 1) * periodMs < maxAgeMs, 'not the whole maxAgeMs: its period is known');
  t.match(store.lookup('proximity-front', now), { status: 'fresh', frame: { nearestHumanM: 0.5 } });
  // Two publishers interleaving on one source never form a run: it stays stale.
  store.ingest(at(5, 0.5), now);
  for (let i = 0; i < 10; i++) {
    now += periodMs / 2;
    store.ingest(at(1e9 + i, null), now);
    now += periodMs / 2;
    store.ingest(at(6 + i, 0.5), now);
  }
  t.equal(store.lookup('proximity-front', now).status, 'resync');
  // A restart at seq 1 recovers after a run; a jump past SEQ_MAX_GAP inside a run restarts it.
  const restarted = untilTaken(1, 2);
  t.equal(store.lookup('proximity-front', now).status, 'fresh');
  now += periodMs;
  const jump = restarted.lastSeq + SEQ_MAX_GAP + 1;
  t.match(store.ingest(at(jump, 2), now), { accepted: false, withdrawn: true });
  now += periodMs;
  t.match(store.ingest(at(jump + 1, 2), now), { accepted: false });
});

t.test('a burst of forged frames cannot re-anchor a source: the run must outlast its period', async (t) => {
  const { gate, profile } = makeGate(armProfile((p) => (p.risk.ssm.enabled = false)));
  const periodMs = 40;
  let now = T0;
  let realSeq = 1_000;
  const real = () => {
    gate.ingestTelemetry(jointState(profile, now), now);
    for (const source of ['proximity-front', 'proximity-rear']) {
      gate.ingestTelemetry({ ...proximity(profile.robotId, source, now, 0.64), seq: realSeq }, now);
    }
    realSeq++;
  };
  feedHealthy(gate, profile, now, 0.64);
  for (let i = 0; i < 5; i++, now += periodMs) real(); // the sensors' period, 40 ms, is on record
  now -= periodMs - 1;
  t.match(
    gate.trapAndSign(armIntent(), now).verdict.violations,
    [/RISK\.HUMAN_IN_RADIUS/],
    'a person at 0.64 m',
  );
  // Another publisher on the sensors' topics sends three consecutive "nobody there" frames back to back.
  let forgedSeq = 5e12;
  const forge = () => {
    for (const source of ['proximity-front', 'proximity-rear']) {
      const frame = { ...proximity(profile.robotId, source, now, null), seq: forgedSeq };
      t.equal(gate.ingestTelemetry(frame, now).accepted, false, `${source} forged seq ${forgedSeq}: refused`);
    }
    forgedSeq++;
  };
  for (let i = 0; i < REANCHOR_FRAMES; i++, now += 1) forge();
  const r = gate.trapAndSign(armIntent(), now);
  t.equal(r.kind, 'veto', 'the move is not signed on the burst');
  t.match(r.verdict.violations.join('\n'), /RISK\.STALE_DATA: .*re-synchronising.*over \d+ ms more/);
  // The forger keeps going, a frame every 10 ms; the real sensors' frames, every 40 ms, break each run.
  let signed = 0;
  for (let step = 1; step <= 30; step++) {
    now += 10;
    if (step % 4 === 0) real();
    else forge();
    if (gate.trapAndSign(armIntent(), now).kind === 'signed') signed++;
  }
  t.equal(signed, 0, 'no move signed while the forger and the sensors interleave');
});

t.test('a stale source from a seq discontinuity vetoes with RISK.STALE_DATA', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile, T0, 3);
  gate.ingestTelemetry({ ...proximity(profile.robotId, 'proximity-front', T0, null), seq: 1e12 }, T0);
  const r = gate.trapAndSign(armIntent(), T0);
  t.equal(r.kind, 'veto');
  t.match(
    gateOf(r.verdict, 'RISK').violations.join('\n'),
    /RISK\.STALE_DATA: proximity\/proximity-front broke its seq/,
  );
});
