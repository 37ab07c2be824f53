/**
 * sensor_msgs/JointState: "each array may be empty" — a driver that measures no effort or velocity publishes
 * them empty. The frame is taken (its positions are real), and every gate that needs the missing measure fails
 * closed naming it: INVARIANT reads effort (measured torque) and velocity (the stopping point from the start);
 * ECONOMY reads positions only.
 */
import type { RobotProfile, TelemetryFrame } from '@pentagate/protocol';
import t from 'tap';
import { T0, armIntent, feedHealthy, jointState, makeGate } from '../trap/fixtures.js';

function judged(patch: (f: Extract<TelemetryFrame, { kind: 'joint-state' }>) => void) {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  const f = jointState(profile, T0 + 1);
  if (f.kind !== 'joint-state') throw new Error('not a joint state');
  patch(f);
  const ingest = gate.ingestTelemetry(f, T0 + 1);
  return { ingest, profile, r: gate.trapAndSign(armIntent(), T0 + 1) };
}

const vertex = (r: ReturnType<typeof judged>['r'], v: string) => r.verdict.gates.find((g) => g.vertex === v);
const allJoints = (p: RobotProfile) => p.joints.map((j) => j.name).join(', ');

t.test('a joint state without effort: taken, and INVARIANT fails closed naming the effort', async (t) => {
  const { ingest, profile, r } = judged((f) => {
    f.effortsNm = [];
  });
  t.equal(ingest.accepted, true, ingest.reason ?? '');
  t.equal(r.kind, 'veto');
  t.match(vertex(r, 'INVARIANT')?.violations, [
    `INVARIANT.MISSING_DATA: no measured effort for ${allJoints(profile)}: joint-state/joint_states seq`,
  ]);
  t.match(vertex(r, 'INVARIANT')?.violations[0], /has an empty effort array$/);
  t.equal(vertex(r, 'ECONOMY')?.passed, true, 'ECONOMY reads positions only');
});

t.test('a joint state without velocity: INVARIANT fails closed naming the velocity', async (t) => {
  const { ingest, r } = judged((f) => {
    f.velocitiesRadS = [];
  });
  t.equal(ingest.accepted, true, ingest.reason ?? '');
  t.equal(r.kind, 'veto');
  t.match(vertex(r, 'INVARIANT')?.violations, [
    /^INVARIANT\.MISSING_DATA: no measured velocity for .* empty velocity array$/,
  ]);
});

t.test('velocity or effort of another length than the names is still refused', async (t) => {
  const { ingest } = judged((f) => {
    f.effortsNm = [1, 2, 3];
  });
  t.match(ingest, {
    accepted: false,
    reason: /^out-of-range: joint_states: expected 6 positions, and 6 or no/,
  });
});

t.test('the same frame with velocity and effort is signed', async (t) => {
  const { r } = judged(() => {});
  t.equal(r.kind, 'signed', r.verdict.violations.join('; '));
});
