/**
 * A running motion's remaining path is swept from the measured state, and the sweep excuses the zones holding
 * its start (a move may begin inside a zone and leave it). Recomputed on every re-check, that excuse covered
 * any zone the robot had drifted into since it was signed, as long as the rest of the plan left it: an arm
 * sagging into the table, or a base pushed into a pillar, ran on. The zones excused are now those of the
 * start when the move was signed, and only until the robot leaves them (gates/held-zones.ts).
 */
import { armSkeleton, dhTable, leverArmsM, skeletonPoints, sweepJointPath } from '@pentagate/edge';
import { hasEdgeViolation, type RobotProfile } from '@pentagate/protocol';
import t from 'tap';
import { MONITOR_PATH_SWEEP_PERIOD_MS } from '../../src/trap/motion-monitor.js';
import {
  T0,
  armIntent,
  armProfile,
  baseIntent,
  baseProfile,
  feedHealthy,
  jointState,
  makeGate,
  pose,
} from './fixtures.js';

/** UR5e joints with the flange below the table top (z ≈ −0.08 m), the elbow and wrist folded down. */
const INTO_TABLE = [0, -0.735, 2.259, -2.175, -1.651, 0];

t.test('an arm measured inside a zone it did not start in is stopped', async (t) => {
  const { gate, profile } = makeGate(armProfile());
  feedHealthy(gate, profile);
  const signed = gate.trapAndSign(armIntent(), T0);
  t.equal(signed.kind, 'signed');
  t.same(signed.verdict.gates.find((g) => g.vertex === 'INVARIANT')?.evidence.startZones, []);
  const at = T0 + MONITOR_PATH_SWEEP_PERIOD_MS;
  const outcome = gate.ingestTelemetry(jointState(profile, at, INTO_TABLE), at);
  t.equal(outcome.stop?.setpoints.kind, 'stop', 'a STOP');
  t.ok(
    hasEdgeViolation(outcome.verdict?.violations ?? [], 'INVARIANT.KEEP_OUT_PATH'),
    String(outcome.verdict?.violations),
  );
  t.match(
    outcome.verdict?.violations.join('\n'),
    /inside zone table-top, which it was not in when the move was signed/,
  );
});

t.test('a base pushed into a pillar its remaining drive would leave is stopped', async (t) => {
  const { gate, profile } = makeGate(baseProfile());
  feedHealthy(gate, profile);
  const signed = gate.trapAndSign(baseIntent(), T0);
  t.equal(signed.kind, 'signed');
  const at = T0 + MONITOR_PATH_SWEEP_PERIOD_MS;
  // x = 10 is pillar-1's centre; 2 s at 0.5 m/s more would carry the base out of it again
  const outcome = gate.ingestTelemetry(pose(profile.robotId, at, 10), at);
  t.equal(outcome.stop?.setpoints.kind, 'stop', 'a STOP');
  t.match(
    outcome.verdict?.violations.join('\n'),
    /INVARIANT\.KEEP_OUT_PATH: .*inside zone pillar-1, which it was not in/,
  );
});

t.test('a move that starts inside a zone may leave it, but not come back', async (t) => {
  const { gate, profile } = makeGate(baseProfile());
  feedHealthy(gate, profile);
  // the base starts inside pillar-1 and drives out of it
  const start = T0 + 1;
  gate.ingestTelemetry(pose(profile.robotId, start, 10), start);
  const signed = gate.trapAndSign(baseIntent({ durationMs: 3000 }), start);
  t.equal(signed.kind, 'signed', String(signed.verdict.violations));
  t.same(signed.verdict.gates.find((g) => g.vertex === 'INVARIANT')?.evidence.startZones, ['pillar-1']);
  let at = start + MONITOR_PATH_SWEEP_PERIOD_MS;
  t.equal(gate.ingestTelemetry(pose(profile.robotId, at, 10.1), at).stop, undefined, 'still leaving it');
  at += MONITOR_PATH_SWEEP_PERIOD_MS;
  t.equal(gate.ingestTelemetry(pose(profile.robotId, at, 10.9), at).stop, undefined, 'out of it');
  at += MONITOR_PATH_SWEEP_PERIOD_MS;
  const back = gate.ingestTelemetry(pose(profile.robotId, at, 10.1), at);
  t.equal(back.stop?.setpoints.kind, 'stop', 'back inside: a STOP');
  t.match(back.verdict?.violations.join('\n'), /INVARIANT\.KEEP_OUT_PATH/);
});

/** The arm reaching forward (the shoulder lift varied, the rest fixed) and how low its skeleton goes. */
const reach = (liftRad: number) => [0, liftRad, 1.571, -1.571, -1.571, 0];

function armReach(profile: RobotProfile) {
  const table = dhTable(profile.joints.map((j) => j.dh));
  const skeleton = armSkeleton(table, profile.keepOut.minZoneThicknessM);
  /** The lowest z of any checked point of the arm at `q`, m. */
  const lowestZ = (q: number[]) => {
    const p = skeletonPoints(table, skeleton, q, new Float64Array(3 * skeleton.points));
    return Math.min(...Array.from({ length: skeleton.points }, (_, k) => p[3 * k + 2]!));
  };
  /** The shoulder lift at which the arm's lowest point is at `zM` (bisection; lower lifts reach less far). */
  const liftAt = (zM: number) => {
    let [lo, hi] = [-1.571, -0.071];
    for (let k = 0; k < 60; k++) {
      const mid = (lo + hi) / 2;
      if (lowestZ(reach(mid)) > zM) lo = mid;
      else hi = mid;
    }
    return lo;
  };
  return { lowestZ, liftAt };
}

/**
 * Held means inside the zone as drawn, not within the sampling margin around it (outside review): an arm
 * 1.5 cm above the table, or a base 1 cm from a pillar, had that zone excused, and a move through it was signed.
 */
t.test('a robot within the margin of a zone, not inside it, may not move through it', async (t) => {
  const arm = makeGate(armProfile());
  const { lowestZ, liftAt } = armReach(arm.profile);
  const lo = liftAt(-0.005);
  t.ok(lowestZ(reach(lo)) > -0.02, 'the arm starts above the table zone (its top is z = -0.02 m)');
  t.ok(lowestZ(reach(lo + 0.35)) < -0.15, 'the move dives 15 cm or more into it');
  feedHealthy(arm.gate, arm.profile);
  arm.gate.ingestTelemetry(jointState(arm.profile, T0, reach(lo)), T0);
  const dive = armIntent({
    points: [
      { positionsRad: reach(lo + 0.35), effortsNm: [5, 5, 5, 5, 5, 5], timeFromStartMs: 3000 },
      { positionsRad: reach(lo - 0.15), effortsNm: [5, 5, 5, 5, 5, 5], timeFromStartMs: 6000 },
    ],
  });
  const armVerdict = arm.gate.trapAndSign(dive, T0).verdict;
  t.equal(armVerdict.outcome, 'vetoed');
  t.match(armVerdict.violations.join('\n'), /INVARIANT\.KEEP_OUT_PATH: .* enters zone table-top/);
  t.same(armVerdict.gates.find((g) => g.vertex === 'INVARIANT')?.evidence.startZones, []);

  // pillar-1: centre x = 10, radius 0.25 m; footprint 0.35 m; margin s/2 = 2.5 cm. 0.61 m away: 1 cm outside.
  const base = makeGate(baseProfile());
  feedHealthy(base.gate, base.profile);
  base.gate.ingestTelemetry(pose(base.profile.robotId, T0, 10 - 0.61), T0);
  const through = base.gate.trapAndSign(baseIntent({ durationMs: 3000 }), T0).verdict;
  t.equal(through.outcome, 'vetoed', 'a 1.5 m drive through the pillar');
  t.match(through.violations.join('\n'), /INVARIANT\.KEEP_OUT_PATH: base enters zone pillar-1/);
});

t.test(
  'a zone the motion started in stays held while the arm crosses its margin on the way out',
  async (t) => {
    // The monitor re-sweeps from the measured state with the motion's held zones (heldZones): an arm 1 mm above
    // the table it started in, rising, is still within the 2 cm margin at the next sample and must not be stopped
    // there; a zone it did not start in is an ordinary one, and the same state is a hit.
    const { profile } = makeGate(armProfile());
    const table = dhTable(profile.joints.map((j) => j.dh));
    const spacingM = profile.keepOut.minZoneThicknessM;
    const lo = armReach(profile).liftAt(-0.019);
    const tableTop = profile.keepOut.zones.findIndex((z) => z.id === 'table-top');
    const rising = (heldZones?: ReadonlySet<number>) =>
      sweepJointPath({
        dh: table,
        leverArmsM: leverArmsM(profile.joints.map((j) => j.dh)),
        zones: profile.keepOut.zones,
        spacingM,
        waypointsRad: [reach(lo), reach(lo - 0.4)],
        velocitiesRadS: [],
        stoppingTimeS: 0,
        ...(heldZones ? { heldZones } : {}),
      });
    const held = rising(new Set([tableTop]));
    t.equal(held.hit, undefined, 'held: the arm leaves the table zone and its margin');
    t.same(held.startZones, [tableTop]);
    const ordinary = rising();
    t.match(ordinary.hit, { zoneIndex: tableTop, kind: 'path' }, 'not held: within the margin is a hit');
    t.same(ordinary.startZones, []);
  },
);
