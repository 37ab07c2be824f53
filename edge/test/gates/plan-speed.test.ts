/**
 * ISO/TS 15066 §5.5.4 from the plan's own speed: peak Cartesian speeds by forward kinematics, the separation
 * distance and speed cap for that speed, and the profile cross-check. Numbers are worked by hand below.
 */
import type { RobotProfile } from '@pentagate/protocol';
import t, { type Test } from 'tap';
import { maxSpeedScaleFor, protectiveSeparationDistanceM } from '../../src/gates/separation-distance.js';
import { dhTable } from '../../src/kinematics/forward-kinematics.js';
import { jointLimitFlangeSpeedMps } from '../../src/kinematics/joint-limit-speed.js';
import { peakArmSpeedMps, peakBaseSpeedMps } from '../../src/kinematics/peak-cartesian-speed.js';
import { ssmWarnings } from '../../src/profile/ssm-cross-check.js';
import {
  armIntent,
  armProfile,
  baseProfile,
  feedHealthy,
  HOME,
  jointState,
  makeGate,
  proximity,
  T0,
} from '../trap/fixtures.js';

// A planar two-link arm: links of 1 m and 0.5 m, both joints about z.
const planar = [
  { aM: 1, dM: 0, alphaRad: 0, thetaOffsetRad: 0 },
  { aM: 0.5, dM: 0, alphaRad: 0, thetaOffsetRad: 0 },
];

const close = (t: Test, got: number, want: number, what: string) =>
  t.ok(Math.abs(got - want) < 1e-9, `${what}: ${got} ≈ ${want}`);

t.test('peak Cartesian speed of an arm plan, by forward kinematics', async (t) => {
  const table = dhTable(planar);
  // Joint 1 turns 0.1 rad in 0.1 s (1 rad/s) with the arm stretched: the tip, 1.5 m from the axis, moves at
  // 1 × 1.5 = 1.5 m/s; the elbow at 1 × 1.0 = 1.0 m/s. The peak is the tip's.
  const stretchedTurn = [
    [0, 0],
    [0.1, 0],
  ];
  close(t, peakArmSpeedMps(table, stretchedTurn, [0, 100], []), 1.5, 'joint 1 at 1 rad/s');
  // Joint 2 turns 0.2 rad in 0.1 s (2 rad/s): the tip is 0.5 m from joint 2's axis → 1.0 m/s.
  const elbowTurn = [
    [0, 0],
    [0, 0.2],
  ];
  close(t, peakArmSpeedMps(table, elbowTurn, [0, 100], []), 1, 'joint 2 at 2 rad/s');
  // A planned velocity at a waypoint counts too: 3 rad/s on joint 1 at the stretched pose → 4.5 m/s.
  close(t, peakArmSpeedMps(table, [[0, 0]], [0], [[3, 0]]), 4.5, 'planned 3 rad/s');
  // The bound never under-states: both joints at 1 rad/s, folded at 90°: tip at (1, 0.5), |tip| = √1.25;
  // bound = 1 × √1.25 + 1 × 0.5 ≈ 1.618 m/s ≥ the true |ω × r| sum.
  const folded = peakArmSpeedMps(
    table,
    [
      [0, Math.PI / 2],
      [0.1, Math.PI / 2 + 0.1],
    ],
    [0, 100],
    [],
  );
  t.ok(folded >= Math.sqrt(1.25) + 0.5 - 0.01 && folded <= Math.sqrt(1.25) + 0.5 + 0.06, `folded ${folded}`);
});

t.test('peak speed of a base twist: linear plus the footprint rim turning', async (t) => {
  // |(0.3, 0.4)| = 0.5 m/s, plus 1 rad/s × 0.4 m = 0.4 m/s at the rim.
  t.equal(peakBaseSpeedMps({ x: 0.3, y: 0.4 }, { z: -1 }, 0.4), 0.9);
});

t.test('the speed cap is computed for the plan’s speed, not the rated one', async (t) => {
  // UR5e example terms: S_p(k) = 0.15 k² + (1.6·0.3 + 1.0·0.1) k + (1.6·0.1 + 0.2 + 0.05 + 0.02)
  //                            = 0.15 k² + 0.58 k + 0.43;  S_p(1) = 1.16 m.
  const profile = armProfile();
  const terms = { humanSpeedMps: 1.6, ssm: profile.risk.ssm };
  t.equal(protectiveSeparationDistanceM(terms, 1).toFixed(4), '1.1600');
  // A plan at the rated 1 m/s with a person at 1.5 m: S_p(1) = 1.16 ≤ 1.5 → no cap.
  t.equal(maxSpeedScaleFor(terms, 1.5, 1), 1);
  // A plan peaking at 2 m/s (f = 2): S_p(2) = 0.6 + 1.16 + 0.43 = 2.19 m > 1.5 m. Largest k with
  // 0.15 k² + 0.58 k + 0.43 ≤ 1.5: k = (−0.58 + √(0.58² + 4·0.15·1.07)) / 0.3 = 1.3638…; s = k / 2 = 0.6819 → 0.68.
  // Check: S_p(2·0.68 = 1.36) = 1.4962 ≤ 1.5; S_p(2·0.69 = 1.38) = 1.5161 > 1.5.
  t.equal(maxSpeedScaleFor(terms, 1.5, 2), 0.68);
  t.ok(protectiveSeparationDistanceM(terms, 1.36) <= 1.5);
  t.ok(protectiveSeparationDistanceM(terms, 1.38) > 1.5);
  // Below S_p(0) = 0.43 m nothing fits at any speed.
  t.equal(maxSpeedScaleFor(terms, 0.42, 2), undefined);
});

t.test('the flange speed the joint limits allow', async (t) => {
  // Planar arm, |ω₁| ≤ 1 and |ω₂| ≤ 2 rad/s: stretched, both turning the same way, the tip moves at
  // 1 × 1.5 + 2 × 0.5 = 2.5 m/s — the most any pose allows. Sampling approaches it from below.
  const profile = {
    kind: 'arm',
    joints: planar.map((dh, i) => ({
      name: `j${i}`,
      torqueLimitNm: 10,
      velocityLimitRadS: i === 0 ? 1 : 2,
      positionLimitsRad: { min: -Math.PI, max: Math.PI },
      dh,
    })),
  } as unknown as RobotProfile;
  const v = jointLimitFlangeSpeedMps(profile);
  t.ok(v > 2.45 && v <= 2.5 + 1e-6, `${v} m/s`);
});

t.test('edge check warns when the joint limits outrun the SSM assumptions', async (t) => {
  const ur5e = armProfile();
  const warnings = ssmWarnings(ur5e);
  t.same(
    warnings.map((w) => w.path),
    ['risk.ssm.robotSpeedMps', 'risk.operatingRadiusM'],
  );
  const flange = Number(/reach about (\d+\.\d+) m\/s/.exec(warnings[0]!.message)![1]);
  t.ok(flange > 2, `the UR5e joint limits allow ${flange} m/s at the flange (> 2 m/s)`);
  const needed = protectiveSeparationDistanceM({ humanSpeedMps: 1.6, ssm: ur5e.risk.ssm }, flange);
  t.match(
    warnings[1]!.message,
    new RegExp(`needs a protective separation of ${needed.toFixed(2).slice(0, -1)}`),
  );
  const slowJoints = armProfile((p) => {
    for (const j of p.joints) j.velocityLimitRadS = 0.2;
  });
  t.same(ssmWarnings(slowJoints), [], 'joints slow enough for the rated speed: no warning');
  t.same(ssmWarnings(baseProfile()), [], 'SSM off: nothing to say');
});

t.test(
  'a running motion is judged at the speed it was signed for, not a lagging robot’s catch-up',
  async (t) => {
    // Sources stay fresh for the whole test: only speeds may stop the motion here.
    const { gate, profile } = makeGate(
      armProfile((p) => {
        for (const s of p.sources) s.maxAgeMs = 60_000;
      }),
    );
    // A person at 3 m: outside S_p of this slow plan (0.2 rad of the base joint per 0.5 s).
    feedHealthy(gate, profile, T0, 3);
    const signed = gate.trapAndSign(armIntent(), T0);
    t.equal(signed.kind, 'signed');
    const peakMps = signed.verdict.gates.find((g) => g.vertex === 'RISK')?.evidence
      .planPeakSpeedMps as number;
    t.ok(peakMps > 0 && peakMps < 1, `plan peak ${peakMps} m/s`);
    // 900 ms in, the robot has not moved at all (still at HOME) and the person is still at 3 m. Measured from
    // the lagging joint state, the remaining 0.4 rad in 100 ms would look like ~4 m/s and need S_p > 3 m; the
    // plan itself never asked for that, so the motion is not stopped.
    const later = T0 + 900;
    // ingestTelemetry re-checks the running motion on every frame and returns the STOP if there is one.
    const outcomes = [
      gate.ingestTelemetry(jointState(profile, later, HOME), later),
      gate.ingestTelemetry(proximity(profile.robotId, 'proximity-front', later, 3), later),
      gate.ingestTelemetry(proximity(profile.robotId, 'proximity-rear', later, 3), later),
    ];
    t.same(
      outcomes.map((o) => (o.stop ? o.verdict?.violations.join('; ') : 'no stop')),
      ['no stop', 'no stop', 'no stop'],
      'no STOP for a robot lagging its plan',
    );
    t.equal(gate.monitor(later), undefined);
    t.ok(gate.activeMotion, 'the motion is still running');
    // A person stepping inside the 1.2 m radius still stops it at once.
    const inside = gate.ingestTelemetry(
      proximity(profile.robotId, 'proximity-front', later + 1, 0.9),
      later + 1,
    );
    t.match(inside.verdict?.violations.join('\n'), /RISK\.HUMAN_IN_RADIUS/);
    t.equal(inside.stop?.setpoints.kind, 'stop');
  },
);
