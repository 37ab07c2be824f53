/**
 * Property ("Done when"): over ≥ 10,000 random intents and telemetry sets, no command is ever signed
 * when any gate's rule is broken, and every signed command passes the shared acceptance function.
 *
 * The oracle below recomputes each rule on its own, from the same inputs, with deliberately plain code:
 * its own DH forward kinematics (4×4 matrices), a fine fixed-step path sampling (100 steps per segment)
 * against the zones, the ISO/TS 15066 S_p written out term by term, the staleness of every source, torque,
 * position and speed limits, the battery reserve and sag, the firmware hash and the consent requirement.
 * Zones count as "already occupied" when the start lies within minZoneThicknessM/2 of them (the documented
 * tolerance of the "only motion that leaves it" rule).
 */
import { acceptMotorCommand } from '@pentagate/crypto';
import { EdgeGate, MemorySequenceStore } from '@pentagate/edge';
import {
  edgeViolationCode,
  type JointTrajectoryIntent,
  type KeepOutZone,
  type RobotProfile,
  type TelemetryFrame,
} from '@pentagate/protocol';
import fc from 'fast-check';
import t from 'tap';
import {
  FIRMWARE_SHA,
  HOME,
  T0,
  armProfile,
  battery,
  calibration,
  consent,
  firmware,
  firmwareManifest,
  hmacKey,
  jointState,
  proximity,
  trust,
} from './fixtures.js';

/** C = A · B for 4×4 row-major matrices (plain triple loop). */
function mul4(a: Float64Array, b: Float64Array, c: Float64Array): void {
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += a[4 * i + k]! * b[4 * k + j]!;
      c[4 * i + j] = sum;
    }
  }
}

/**
 * The arm's points by multiplying Rz(θ)·Tz(d)·Tx(a)·Rx(α) matrices one by one (the textbook DH product): the
 * frame origins and points along each link's d and a legs.
 */
function oracleFrames(p: RobotProfile, q: readonly number[]): [number, number, number][] {
  let m = Float64Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
  let tmp = new Float64Array(16);
  const out: [number, number, number][] = [];
  p.joints.forEach((j, i) => {
    const th = q[i]! + j.dh.thetaOffsetRad;
    const { aM: a, dM: d, alphaRad: al } = j.dh;
    const c = Math.cos(th);
    const s = Math.sin(th);
    const ca = Math.cos(al);
    const sa = Math.sin(al);
    let from: [number, number, number] = [m[3]!, m[7]!, m[11]!];
    for (const f of [
      Float64Array.of(c, -s, 0, 0, s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1),
      Float64Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, d, 0, 0, 0, 1),
      Float64Array.of(1, 0, 0, a, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1),
      Float64Array.of(1, 0, 0, 0, 0, ca, -sa, 0, 0, sa, ca, 0, 0, 0, 0, 1),
    ]) {
      mul4(m, f, tmp);
      [m, tmp] = [tmp, m];
      // The arm's links, not only its frame origins: every ORACLE_LINK_STEP_M along the d leg and the a leg.
      const to: [number, number, number] = [m[3]!, m[7]!, m[11]!];
      const legM = Math.hypot(to[0] - from[0], to[1] - from[1], to[2] - from[2]);
      const pieces = Math.ceil(legM / ORACLE_LINK_STEP_M);
      for (let k = 1; k <= pieces; k++)
        out.push(
          [0, 1, 2].map((i) => from[i]! + ((to[i]! - from[i]!) * k) / pieces) as [number, number, number],
        );
      from = to;
    }
    out.push(from);
  });
  return out;
}

/** The oracle's spacing along the links, m: finer than the gate's, and its own. */
const ORACLE_LINK_STEP_M = 0.01;

/** Winding-number point-in-polygon (a different algorithm from the gate's ray casting). */
function windingInside(x: number, y: number, poly: { x: number; y: number }[]): boolean {
  let angle = 0;
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i]!;
    const b = poly[(i + 1) % poly.length]!;
    let d = Math.atan2(b.y - y, b.x - x) - Math.atan2(a.y - y, a.x - x);
    while (d > Math.PI) d -= 2 * Math.PI;
    while (d < -Math.PI) d += 2 * Math.PI;
    angle += d;
  }
  return Math.abs(angle) > Math.PI;
}

function segDist(px: number, py: number, a: { x: number; y: number }, b: { x: number; y: number }): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const u = Math.max(0, Math.min(1, ((px - a.x) * dx + (py - a.y) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(a.x + u * dx - px, a.y + u * dy - py);
}

function inZone(z: KeepOutZone, [x, y, zz]: [number, number, number], grow = 0): boolean {
  if (z.shape === 'sphere')
    return Math.hypot(x - z.centerM.x, y - z.centerM.y, zz - z.centerM.z) <= z.radiusM + grow;
  if (z.shape === 'box') {
    return (
      x >= z.minM.x - grow &&
      x <= z.maxM.x + grow &&
      y >= z.minM.y - grow &&
      y <= z.maxM.y + grow &&
      zz >= z.minM.z - grow &&
      zz <= z.maxM.z + grow
    );
  }
  if (zz < z.zMinM - grow || zz > z.zMaxM + grow) return false;
  if (windingInside(x, y, z.polygonM)) return true;
  return (
    grow > 0 && z.polygonM.some((a, i) => segDist(x, y, a, z.polygonM[(i + 1) % z.polygonM.length]!) <= grow)
  );
}

interface Scenario {
  q0: number[];
  measuredEffort: number[];
  points: { dq: number[]; dtMs: number; efforts: number[] | undefined }[];
  human: { front: number | null; rear: number | null };
  ages: Record<string, number | null>; // ms old at decision time; null = never sent
  soc: number;
  voltageV: number;
  goodFirmware: boolean;
  safetyCritical: boolean;
  moveClass: 'pick' | 'default' | 'heavy-lift' | undefined;
  extraZone: { x: number; y: number; z: number; r: number };
  submitConsent: boolean;
}

/** A uniform number in [min, max] (fast-check's doubles favour the bounds, which would make most runs trivial). */
const uniform = (min: number, max: number) =>
  fc.integer({ min: 0, max: 1_000_000 }).map((u) => min + ((max - min) * u) / 1_000_000);
const small = (r: number) => uniform(-r, r);
const sources = ['joint_states', 'proximity-front', 'proximity-rear', 'battery', 'firmware'] as const;
const maxAge: Record<string, number> = {
  joint_states: 50,
  'proximity-front': 100,
  'proximity-rear': 100,
  battery: 2000,
  firmware: 600000,
};

const ageArb = (name: string) =>
  fc.oneof(
    { weight: 40, arbitrary: fc.integer({ min: 0, max: maxAge[name]! }) },
    { weight: 1, arbitrary: fc.integer({ min: maxAge[name]! + 1, max: maxAge[name]! * 3 }) },
    { weight: 1, arbitrary: fc.constant(null) },
  );

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  q0: fc.tuple(...HOME.map((h) => small(0.8).map((d) => h + d))),
  measuredEffort: fc.tuple(
    ...[150, 150, 150, 28, 28, 28].map((lim) =>
      fc.oneof(
        { weight: 30, arbitrary: uniform(-lim * 0.9, lim * 0.9) },
        { weight: 1, arbitrary: uniform(-lim * 1.2, lim * 1.2) },
      ),
    ),
  ),
  points: fc.array(
    fc.record({
      dq: fc.tuple(...HOME.map(() => small(0.4))),
      dtMs: fc.integer({ min: 150, max: 1500 }),
      efforts: fc.option(
        fc.tuple(
          ...[150, 150, 150, 28, 28, 28].map((lim) =>
            fc.oneof(
              { weight: 30, arbitrary: uniform(-lim * 0.7, lim * 0.7) },
              { weight: 1, arbitrary: uniform(-lim * 1.2, lim * 1.2) },
            ),
          ),
        ),
        { nil: undefined, freq: 3 },
      ),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  human: fc.record({
    front: fc.option(uniform(0, 4), { nil: null, freq: 2 }),
    rear: fc.option(uniform(0, 4), { nil: null, freq: 2 }),
  }),
  ages: fc.record(
    Object.fromEntries(sources.map((s) => [s, ageArb(s)])) as Record<string, fc.Arbitrary<number | null>>,
  ),
  soc: uniform(0, 1),
  voltageV: uniform(40.5, 52),
  goodFirmware: fc.oneof(
    { weight: 15, arbitrary: fc.constant(true) },
    { weight: 1, arbitrary: fc.constant(false) },
  ),
  safetyCritical: fc.oneof(
    { weight: 4, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  ),
  moveClass: fc.constantFrom('pick' as const, 'default' as const, 'heavy-lift' as const, undefined),
  extraZone: fc.record({
    x: small(1),
    y: small(1),
    z: uniform(0, 1.2),
    r: uniform(0.02, 0.2),
  }),
  submitConsent: fc.oneof(
    { weight: 3, arbitrary: fc.constant(true) },
    { weight: 1, arbitrary: fc.constant(false) },
  ),
});

/** Every rule the oracle finds broken (empty = signing is allowed). */
function brokenRules(
  p: RobotProfile,
  s: Scenario,
  intent: JointTrajectoryIntent,
  speedScale: number,
): string[] {
  const broken: string[] = [];
  for (const src of sources) {
    const age = s.ages[src];
    if (age === null || age === undefined || age > maxAge[src]!) broken.push(`stale ${src}`);
  }
  p.joints.forEach((j, i) => {
    if (Math.abs(s.measuredEffort[i]!) > j.torqueLimitNm) broken.push('measured torque');
    for (const pt of intent.points)
      if (pt.effortsNm && Math.abs(pt.effortsNm[i]!) > j.torqueLimitNm) broken.push('planned torque');
    for (const q of [s.q0, ...intent.points.map((x) => x.positionsRad)]) {
      if (q[i]! < j.positionLimitsRad.min || q[i]! > j.positionLimitsRad.max) broken.push('position limit');
    }
  });
  let prev = s.q0;
  let prevT = 0;
  for (const pt of intent.points) {
    const dt = (pt.timeFromStartMs - prevT) / 1000;
    p.joints.forEach((j, i) => {
      if (Math.abs(pt.positionsRad[i]! - prev[i]!) / dt > j.velocityLimitRadS) broken.push('velocity');
    });
    prev = pt.positionsRad;
    prevT = pt.timeFromStartMs;
  }
  // Zones: fine fixed-step sampling; zones the start is really in (as drawn; half the oracle's own link step
  // of tolerance, since its points are not the gate's) are exempt along the path, but the path must not end
  // inside one. A start within the sampling margin of a zone is outside it: no exemption.
  const tol = ORACLE_LINK_STEP_M / 2;
  const startPts = oracleFrames(p, s.q0);
  const exempt = p.keepOut.zones.map((z) => startPts.some((pt) => inZone(z, pt, tol)));
  prev = s.q0;
  prevT = 0;
  for (const pt of intent.points) {
    for (let k = 1; k <= STEPS; k++) {
      const u = k / STEPS;
      const q = prev.map((a, i) => a + (pt.positionsRad[i]! - a) * u);
      const frames = oracleFrames(p, q);
      p.keepOut.zones.forEach((z, zi) => {
        if (!exempt[zi] && frames.some((f) => inZone(z, f))) broken.push(`path in ${z.id}`);
      });
    }
    const v = pt.positionsRad.map((x, i) => (x - prev[i]!) / ((pt.timeFromStartMs - prevT) / 1000));
    const stop = oracleFrames(
      p,
      pt.positionsRad.map((x, i) => x + v[i]! * (p.risk.ssm.stoppingTimeS / 2)),
    );
    p.keepOut.zones.forEach((z, zi) => {
      if (!exempt[zi] && stop.some((f) => inZone(z, f))) broken.push(`stop in ${z.id}`);
    });
    prev = pt.positionsRad;
    prevT = pt.timeFromStartMs;
  }
  const end = oracleFrames(p, prev);
  p.keepOut.zones.forEach((z) => {
    if (end.some((f) => inZone(z, f))) broken.push(`ends in ${z.id}`);
  });
  // RISK: S_p at the signed speed, every term written out.
  const ssm = p.risk.ssm;
  const vh = ssm.humanSpeedMps ?? 1.6;
  const k = speedScale;
  const sp =
    vh * (ssm.reactionTimeS + k * ssm.stoppingTimeS) +
    k * ssm.robotSpeedMps * ssm.reactionTimeS +
    k * k * ssm.stoppingDistanceM +
    ssm.intrusionDistanceM +
    ssm.humanPositionUncertaintyM +
    ssm.robotPositionUncertaintyM;
  for (const d of [s.human.front, s.human.rear]) if (d !== null && d < sp) broken.push('human inside S_p');
  for (const d of [s.human.front, s.human.rear]) {
    if (d !== null && d < p.risk.operatingRadiusM) broken.push('human inside the operating radius');
  }
  if (k < (ssm.minSpeedScale ?? 0.1)) broken.push('speed scale below minimum');
  // ECONOMY: reserve and sag.
  const b = p.battery;
  let workJ = 0;
  let peakW = 0;
  prev = s.q0;
  prevT = 0;
  intent.points.forEach((pt, n) => {
    const dt = (pt.timeFromStartMs - prevT) / 1000;
    let segJ = 0;
    p.joints.forEach((j, i) => {
      const tau = intent.points[0]!.effortsNm
        ? Math.max(Math.abs(pt.effortsNm![i]!), Math.abs(intent.points[Math.max(0, n - 1)]!.effortsNm![i]!))
        : j.torqueLimitNm;
      segJ += tau * Math.abs(pt.positionsRad[i]! - prev[i]!);
    });
    workJ += segJ;
    peakW = Math.max(peakW, (segJ / dt) * k);
    prev = pt.positionsRad;
    prevT = pt.timeFromStartMs;
  });
  const energyWh = (workJ / b.efficiency + (b.idlePowerW * prevT) / 1000 / k) / 3600;
  if (s.soc * b.capacityWh - energyWh < b.reserveWh) broken.push('reserve');
  const alloc = b.allocationsWh[intent.moveClass ?? 'default'];
  if (alloc === undefined || energyWh > alloc) broken.push('allocation');
  const iPeak = 2 + peakW / b.efficiency / s.voltageV;
  if (s.voltageV - iPeak * b.internalResistanceOhm < b.minVoltageV) broken.push('voltage sag');
  if (!s.goodFirmware) broken.push('firmware');
  // CONSENT
  const peak = Math.max(
    ...p.joints.map((j, i) =>
      intent.points[0]!.effortsNm
        ? Math.max(...intent.points.map((x) => Math.abs(x.effortsNm![i]!)))
        : j.torqueLimitNm,
    ),
  );
  const needsConsent =
    peak > p.consent.highTorqueThresholdNm ||
    s.safetyCritical ||
    p.consent.safetyCriticalMoveClasses.includes(intent.moveClass ?? '');
  if (needsConsent && !s.submitConsent) broken.push('consent');
  return broken;
}

/** Oracle samples per segment (the gate chooses its own count from the lever-arm bound). */
const STEPS = 100;
const BASE = armProfile();
const MANIFEST = firmwareManifest();
const CALIBRATIONS = BASE.sensors
  .filter((x) => x.calibrationRequired)
  .map((x) => calibration(BASE.robotId, x.id));
const keys = new Map([[hmacKey.kid, hmacKey.key]]);

// 10,000 runs with a fine oracle take ~60 s alone and over 120 s (tap's per-file default) when the suite's
// other jobs share the two cores; the run count is the floor, so the time limit is raised instead.
t.setTimeout(480_000);

t.test(
  'no command is signed when a rule is broken; every signed command is accepted by the controller',
  async (t) => {
    let signed = 0;
    let refused = 0;
    let n = 0;
    const gate = new EdgeGate({
      profile: BASE,
      trust,
      hmacKey,
      sequence: new MemorySequenceStore(),
      clock: () => T0,
    });
    gate.loadProvenance({ firmwareManifests: [MANIFEST], calibrationCertificates: CALIBRATIONS }, T0);
    let controller = { robotId: BASE.robotId, epoch: 0, lastSeq: 0 };
    fc.assert(
      fc.property(scenarioArb, (s) => {
        n++;
        const profile: RobotProfile = {
          ...BASE,
          keepOut: {
            ...BASE.keepOut,
            zones: [
              ...BASE.keepOut.zones,
              {
                id: 'random',
                shape: 'sphere',
                centerM: { x: s.extraZone.x, y: s.extraZone.y, z: s.extraZone.z },
                radiusM: s.extraZone.r,
              },
            ],
          },
        };
        // A new profile per run (the random zone): telemetry, waits and the motion are forgotten, the epoch bumps.
        gate.configurationChanged(profile);
        const frames: [string, TelemetryFrame][] = [
          ['joint_states', jointState(profile, 0, s.q0, s.measuredEffort)],
          ['proximity-front', proximity(profile.robotId, 'proximity-front', 0, s.human.front)],
          ['proximity-rear', proximity(profile.robotId, 'proximity-rear', 0, s.human.rear)],
          [
            'battery',
            battery(profile.robotId, 0, { stateOfCharge: s.soc, voltageV: s.voltageV, currentA: 2 }),
          ],
          ['firmware', firmware(profile.robotId, 0, s.goodFirmware ? FIRMWARE_SHA : 'b'.repeat(64))],
        ];
        for (const [src, f] of frames) {
          const age = s.ages[src];
          if (age === null || age === undefined) continue;
          gate.ingestTelemetry({ ...f, stampMs: T0 - age }, T0 - age);
        }
        let tMs = 0;
        let q = s.q0;
        const intent: JointTrajectoryIntent = {
          v: 1,
          kind: 'joint-trajectory',
          intentId: `int-${n}`,
          robotId: profile.robotId,
          jointNames: profile.joints.map((j) => j.name),
          points: s.points.map((pt) => {
            tMs += pt.dtMs;
            q = q.map((x, i) => x + pt.dq[i]!);
            return {
              positionsRad: q,
              timeFromStartMs: tMs,
              ...(pt.efforts ? { effortsNm: pt.efforts } : {}),
            };
          }),
          ...(s.moveClass ? { moveClass: s.moveClass } : {}),
          ...(s.safetyCritical ? { safetyCritical: true } : {}),
        };
        // Efforts on every point or none (the planner's contract); the oracle reads the first point to know which.
        if (intent.points.some((p) => p.effortsNm) && !intent.points.every((p) => p.effortsNm)) {
          for (const p of intent.points) delete p.effortsNm;
        }
        let r = gate.trapAndSign(intent, T0);
        if (r.kind === 'awaiting-consent' && s.submitConsent) r = gate.submitConsent(consent(intent), T0);
        if (r.kind !== 'signed') {
          refused++;
          // every refusal names registered codes only (the edge's violation registry)
          const unregistered = r.verdict.violations.filter((v) => edgeViolationCode(v) === undefined);
          if (unregistered.length > 0)
            throw new Error(`unregistered violation codes: ${unregistered.join(' | ')}`);
          if (r.verdict.violations.length === 0) throw new Error('a refusal without a violation');
          return true;
        }
        signed++;
        const scale = r.command.setpoints.kind === 'joint' ? (r.command.setpoints.speedScale ?? 1) : 1;
        const broken = brokenRules(profile, s, intent, scale);
        if (broken.length > 0) throw new Error(`signed although: ${broken.join(', ')}`);
        // One controller across all runs: every signed command must be accepted in turn (fresh seq, current epoch).
        const acc = acceptMotorCommand(controller, r.command, { keys, nowMs: T0 });
        if (!acc.accepted)
          throw new Error(`controller refused a signed command: ${acc.reason} ${acc.detail}`);
        controller = acc.state;
        return true;
      }),
      { numRuns: 10_000 },
    );
    t.equal(signed + refused, 10_000);
    // Not vacuous: both outcomes occur often.
    t.ok(signed > 1000, `signed ${signed}`);
    t.ok(refused > 1000, `refused ${refused}`);
  },
);
