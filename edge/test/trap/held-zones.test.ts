/**
 * A running motion's remaining path is swept from the measured state, and the sweep excuses the zones holding
 * its start (a move may begin inside a zone and leave it). Recomputed on every re-check, that excuse covered
 * any zone the robot had drifted into since it was signed, as long as the rest of the plan left it: an arm
 * sagging into the table, or a base pushed into a pillar, ran on. The zones excused are now those of the
 * start when the move was signed, and only until the robot leaves them (gates/held-zones.ts).
 */
import { hasEdgeViolation } from '@pentagate/protocol';
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
