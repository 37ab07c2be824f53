/**
 * A running motion's remaining path is swept from the measured state, and the sweep excuses the zones holding
 * its start (a move may begin inside a zone and leave it). Recomputed on every re-check, that excuse covered
 * any zone the robot had drifted into since it was signed, as long as the rest of the plan left it: an arm
 * sagging into the table, or a base pushed into a pillar, ran on. The zones excused are now those of the
 * start when the move was signed, and only until the robot leaves them (gates/held-zones.ts).
 */
import { dhTable, leverArmsM, sweepJointPath } from '@pentagate/edge';
import { hasEdgeViolation } from '@pentagate/protocol';
import t from 'tap';
import { MONITOR_PATH_SWEEP_PERIOD_MS } from '../../src/trap/motion-monitor.js';
import { armReach, reach } from './arm-reach.js';
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
    /inside zone table-top or its margin, which it was not in when the move was signed/,
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
    /INVARIANT\.KEEP_OUT_PATH: .*inside zone pillar-1 or its margin, which it was not in/,
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

/**
 * A robot within the margin of a zone, outside it as drawn, may not come closer (outside review: an arm 1.5 cm
 * above the table, or a base 1 cm from a pillar, had that zone excused as a whole, and a move through it was
 * signed). It is held to the no-deeper rule (kinematics/zone-depth-ratchet.ts), so a move through is vetoed.
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
  t.match(armVerdict.violations.join('\n'), /INVARIANT\.KEEP_OUT_DEEPER: .* deeper into zone table-top/);
  t.same(armVerdict.gates.find((g) => g.vertex === 'INVARIANT')?.evidence.startZones, ['table-top']);

  // pillar-1: centre x = 10, radius 0.25 m; footprint 0.35 m; margin s/2 = 2.5 cm. 0.61 m away: 1 cm outside.
  const base = makeGate(baseProfile());
  feedHealthy(base.gate, base.profile);
  base.gate.ingestTelemetry(pose(base.profile.robotId, T0, 10 - 0.61), T0);
  const through = base.gate.trapAndSign(baseIntent({ durationMs: 3000 }), T0).verdict;
  t.equal(through.outcome, 'vetoed', 'a 1.5 m drive through the pillar');
  t.match(
    through.violations.join('\n'),
    /INVARIANT\.KEEP_OUT_DEEPER: base goes .* deeper into zone pillar-1/,
  );
});

t.test('an arm in the margin of the table, rising, is not stopped as it crosses the margin', async (t) => {
  // The monitor re-sweeps from the measured state: an arm 1 mm above the table, rising, is still within the
  // 2 cm margin at the next sample. Its clearance grows, so it is not stopped there, whether the zone was held
  // since the move was signed or not.
  const { profile } = makeGate(armProfile());
  const table = dhTable(profile.joints.map((j) => j.dh));
  const lo = armReach(profile).liftAt(-0.019);
  const tableTop = profile.keepOut.zones.findIndex((z) => z.id === 'table-top');
  const rising = sweepJointPath({
    dh: table,
    leverArmsM: leverArmsM(profile.joints.map((j) => j.dh)),
    zones: profile.keepOut.zones,
    spacingM: profile.keepOut.minZoneThicknessM,
    waypointsRad: [reach(lo), reach(lo - 0.4)],
    velocitiesRadS: [],
    stoppingTimeS: 0,
  });
  t.equal(rising.hit, undefined, "the arm leaves the table zone's margin");
  t.same(rising.startZones, [tableTop]);
  t.same(rising.endZones, []);
});
