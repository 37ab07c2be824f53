/**
 * A robot inside a keep-out zone, or within its margin, may move out or along but never deeper
 * (kinematics/zone-depth-ratchet.ts). Before, a zone holding the start as drawn was excused until the path left
 * it (an arm 1 cm in the table was signed a dive 15 cm deeper and back out), and one holding it within the
 * margin only was an ordinary zone (a robot parked there was vetoed unless its first step cleared the margin,
 * so a slow move away, or along the zone, was refused). While the move runs, a robot measured deeper than the
 * shallowest it has been since the move was signed, by more than its plan may go between two samples, is
 * stopped: each re-sweep starts from the measured state, and a sagging arm was judged from wherever it sagged to.
 */
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

const EFFORTS = [5, 5, 5, 5, 5, 5];

/** A gate with the arm measured at shoulder lift `liftRad` (reach), and its verdict on moves through `to`. */
function armAt(liftRad: number) {
  const setup = makeGate(armProfile());
  feedHealthy(setup.gate, setup.profile);
  setup.gate.ingestTelemetry(jointState(setup.profile, T0, reach(liftRad)), T0);
  const judge = (to: number[][], stepMs = 3000) =>
    setup.gate.trapAndSign(
      armIntent({
        points: to.map((positionsRad, i) => ({
          positionsRad,
          effortsNm: EFFORTS,
          timeFromStartMs: (i + 1) * stepMs,
        })),
      }),
      T0,
    ).verdict;
  return { ...setup, judge, ...armReach(setup.profile) };
}

/** A gate with the base measured at (x, y), and its verdict on a twist. */
function baseAt(xM: number, yM = 0) {
  const setup = makeGate(baseProfile());
  feedHealthy(setup.gate, setup.profile);
  setup.gate.ingestTelemetry(pose(setup.profile.robotId, T0, xM, yM), T0);
  const judge = (vx: number, vy: number, durationMs: number) =>
    setup.gate.trapAndSign(
      baseIntent({ linearMps: { x: vx, y: vy, z: 0 }, durationMs, moveClass: 'transit' }),
      T0,
    ).verdict;
  return { ...setup, judge };
}

t.test('an arm 1 cm inside the table may not go deeper before it leaves', async (t) => {
  const probe = armAt(0);
  const lift = probe.liftAt(-0.03);
  const arm = armAt(lift);
  t.ok(arm.lowestZ(reach(lift)) < -0.025, 'the arm starts inside the table zone (its top is z = -0.02 m)');
  t.ok(arm.lowestZ(reach(lift + 0.3)) < -0.15, 'the dive goes 12 cm or more deeper');
  const dive = arm.judge([reach(lift + 0.3), reach(lift - 0.15)]);
  t.equal(dive.outcome, 'vetoed', 'deeper, then out: vetoed');
  t.match(dive.violations.join('\n'), /INVARIANT\.KEEP_OUT_DEEPER: .* cm deeper into zone table-top/);
  const out = arm.judge([reach(lift - 0.15)]);
  t.equal(out.outcome, 'signed', `straight out: signed (${out.violations.join('; ')})`);
  t.same(out.gates.find((g) => g.vertex === 'INVARIANT')?.evidence.startZones, ['table-top']);
});

t.test('an arm in the margin of the table may move away or along, not closer', async (t) => {
  const probe = armAt(0);
  const lift = probe.liftAt(-0.01);
  const arm = armAt(lift);
  t.ok(arm.lowestZ(reach(lift)) > -0.02, 'the arm starts 1 cm above the table zone, within its 2 cm margin');
  // 0.01 rad of lift moves the lowest point a few mm: still within the margin at every sample
  t.ok(arm.lowestZ(reach(lift - 0.01)) < 0, 'the slow move away ends within the margin');
  const away = arm.judge([reach(lift - 0.01)]);
  t.equal(away.outcome, 'signed', `a slow move away: signed (${away.violations.join('; ')})`);
  const along = arm.judge([reach(lift).map((q, i) => (i === 0 ? q + 0.2 : q))]);
  t.equal(
    along.outcome,
    'signed',
    `along (the base joint turns, heights stay): ${along.violations.join('; ')}`,
  );
  t.ok(arm.lowestZ(reach(lift + 0.01)) > -0.02, 'the move closer stays outside the zone as drawn');
  const closer = arm.judge([reach(lift + 0.01)]);
  t.equal(closer.outcome, 'vetoed', 'closer: vetoed');
  t.ok(hasEdgeViolation(closer.violations, 'INVARIANT.KEEP_OUT_DEEPER'), closer.violations.join('\n'));
  t.match(closer.violations.join('\n'), /zone table-top/);
});

// pillar-1: a sphere at (10, 0), radius 0.25 m; the footprint is 0.35 m, the margin s/2 = 2.5 cm, so the base
// meets the pillar below 0.6 m from its centre and its margin below 0.625 m.
t.test('a base in a pillar may not drive deeper before it leaves', async (t) => {
  const base = baseAt(10 - 0.4);
  const through = base.judge(0.5, 0, 3000);
  t.equal(through.outcome, 'vetoed', 'through the pillar and out the other side: vetoed');
  t.match(
    through.violations.join('\n'),
    /INVARIANT\.KEEP_OUT_DEEPER: base goes .* deeper into zone pillar-1/,
  );
  const back = base.judge(-0.5, 0, 1000);
  t.equal(back.outcome, 'signed', `backing out: signed (${back.violations.join('; ')})`);
  t.same(back.gates.find((g) => g.vertex === 'INVARIANT')?.evidence.startZones, ['pillar-1']);
  const stays = base.judge(-0.05, 0, 1000);
  t.equal(stays.outcome, 'vetoed', 'backing 5 cm, still in the pillar: vetoed');
  t.ok(hasEdgeViolation(stays.violations, 'INVARIANT.KEEP_OUT_NOT_LEFT'), stays.violations.join('\n'));
});

t.test('a base in the margin of a zone may move away or along, not closer', async (t) => {
  const base = baseAt(10 - 0.61);
  const away = base.judge(-0.1, 0, 100);
  t.equal(away.outcome, 'signed', `1 cm away, still in the margin: signed (${away.violations.join('; ')})`);
  const closer = base.judge(0.05, 0, 100);
  t.equal(closer.outcome, 'vetoed', '5 mm closer, outside the pillar as drawn: vetoed');
  t.match(closer.violations.join('\n'), /INVARIANT\.KEEP_OUT_DEEPER: base goes .* deeper into zone pillar-1/);
  // fire-door: the box x ∈ [-2, -1.8], y ∈ [-0.8, 0.8]; 1 cm into its margin, driving along its face
  const door = baseAt(-1.8 + 0.35 + 0.015);
  const along = door.judge(0, 0.1, 1000);
  t.equal(along.outcome, 'signed', `along the door: signed (${along.violations.join('; ')})`);
  const toward = door.judge(-0.02, 0.1, 1000);
  t.equal(toward.outcome, 'vetoed', 'along and 2 cm toward it: vetoed');
  t.match(toward.violations.join('\n'), /INVARIANT\.KEEP_OUT_DEEPER: .*zone fire-door/);
});

t.test('an arm measured deeper in the table than since its move was signed is stopped', async (t) => {
  const probe = armAt(0);
  const lift = probe.liftAt(-0.03);
  const at = T0 + MONITOR_PATH_SWEEP_PERIOD_MS;
  // Signed: 1 cm in the table, straight out over 6 s.
  const sags = armAt(lift);
  t.equal(sags.judge([reach(lift - 0.15)], 6000).outcome, 'signed');
  t.ok(
    sags.lowestZ(reach(lift + 0.1)) < -0.055,
    'measured 2.5 cm or more deeper, its plan still leading out',
  );
  const sagged = sags.gate.ingestTelemetry(jointState(sags.profile, at, reach(lift + 0.1)), at);
  t.equal(sagged.stop?.setpoints.kind, 'stop', 'a STOP');
  t.match(
    sagged.verdict?.violations.join('\n'),
    /INVARIANT\.KEEP_OUT_DEEPER: the measured arm is [\d.]+ cm deeper in zone table-top .* since the move was signed/,
  );
  const follows = armAt(lift);
  t.equal(follows.judge([reach(lift - 0.15)], 6000).outcome, 'signed');
  const onItsWay = follows.gate.ingestTelemetry(jointState(follows.profile, at, reach(lift - 0.02)), at);
  t.equal(onItsWay.stop, undefined, `on its way out: no STOP (${onItsWay.verdict?.violations.join('; ')})`);
});

t.test('a base measured deeper in a pillar than since its move was signed is stopped', async (t) => {
  const at = T0 + MONITOR_PATH_SWEEP_PERIOD_MS;
  const pushed = baseAt(10 - 0.4);
  t.equal(pushed.judge(-0.5, 0, 2000).outcome, 'signed', 'backing out of the pillar');
  // 10 cm deeper: more than the 5 cm the base travels between two samples of its path
  const inner = pushed.gate.ingestTelemetry(pose(pushed.profile.robotId, at, 10 - 0.3), at);
  t.equal(inner.stop?.setpoints.kind, 'stop', 'a STOP');
  t.match(
    inner.verdict?.violations.join('\n'),
    /INVARIANT\.KEEP_OUT_DEEPER: the base .* deeper in zone pillar-1/,
  );
  const backing = baseAt(10 - 0.4);
  t.equal(backing.judge(-0.5, 0, 2000).outcome, 'signed');
  const out = backing.gate.ingestTelemetry(pose(backing.profile.robotId, at, 10 - 0.45), at);
  t.equal(out.stop, undefined, `on its way out: no STOP (${out.verdict?.violations.join('; ')})`);
});
