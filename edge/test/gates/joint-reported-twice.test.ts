/**
 * A profile may merge joint states from several sources (an arm controller and a wrist node). Each profile
 * joint must come from one of them: the merge kept the later source's values silently, so a wrist node whose
 * JointState also named the arm's base joint (effort 0) hid the arm's own 200 N·m from INVARIANT, and the move was
 * signed. A joint two fresh frames report is now no measurement at all (fail closed), when deciding and while a
 * motion runs.
 */
import { hasEdgeViolation, type TelemetryFrame } from '@pentagate/protocol';
import t from 'tap';
import { HOME, T0, armIntent, armProfile, feedHealthy, makeGate } from '../trap/fixtures.js';

const profile = armProfile((p) => {
  p.sources.push({ name: 'wrist_states', kind: 'joint-state', maxAgeMs: 50 });
});
const NAMES = profile.joints.map((j) => j.name);

/** A joint-state frame of `source` for the joints at `indexes` (HOME positions, at rest). */
function frame(
  source: string,
  at: number,
  seq: number,
  indexes: number[],
  effortsNm: number[],
): TelemetryFrame {
  return {
    v: 1,
    robotId: profile.robotId,
    source,
    seq,
    stampMs: at,
    kind: 'joint-state',
    names: indexes.map((i) => NAMES[i]!),
    positionsRad: indexes.map((i) => HOME[i]!),
    velocitiesRadS: indexes.map(() => 0),
    effortsNm,
  };
}

/** The arm controller: base, shoulder, elbow; the shoulder effort as given. */
const armFrame = (at: number, seq: number, shoulderNm = 40) =>
  frame('joint_states', at, 1000 + seq, [0, 1, 2], [10, shoulderNm, 20]);
/** The wrist node: the three wrist joints, and with `alsoBase` the base joint at effort 0 too. */
const wristFrame = (at: number, seq: number, alsoBase: boolean) =>
  alsoBase
    ? frame('wrist_states', at, seq, [3, 4, 5, 0], [2, 1, 0.5, 0])
    : frame('wrist_states', at, seq, [3, 4, 5], [2, 1, 0.5]);

function setup() {
  const { gate } = makeGate(profile);
  feedHealthy(gate, profile);
  return gate;
}

t.test('a joint reported by two sources is not judged from whichever came last', async (t) => {
  const gate = setup();
  // the arm controller measures 200 N·m at the base joint (limit 150)
  t.match(gate.ingestTelemetry(frame('joint_states', T0, 900, [0, 1, 2], [200, 40, 20]), T0), {
    accepted: true,
  });
  t.match(gate.ingestTelemetry(wristFrame(T0, 1, true), T0), { accepted: true });
  const r = gate.trapAndSign(armIntent(), T0 + 1);
  t.equal(r.kind, 'veto', 'not signed');
  const invariant = r.verdict.gates.find((g) => g.vertex === 'INVARIANT');
  t.ok(
    hasEdgeViolation(invariant?.violations ?? [], 'INVARIANT.MISSING_DATA'),
    JSON.stringify(invariant?.violations),
  );
  t.match(
    invariant?.violations.join('\n'),
    /shoulder_pan_joint is measured by two joint-state sources, joint_states and wrist_states/,
  );
});

t.test('two sources with a joint each merge as before', async (t) => {
  const gate = setup();
  t.match(gate.ingestTelemetry(armFrame(T0, 1), T0), { accepted: true });
  t.match(gate.ingestTelemetry(wristFrame(T0, 1, false), T0), { accepted: true });
  const r = gate.trapAndSign(armIntent(), T0 + 1);
  t.equal(r.kind, 'signed', JSON.stringify(r.verdict.violations));
});

t.test('while a motion runs, a second source naming an arm joint stops it', async (t) => {
  const gate = setup();
  t.match(gate.ingestTelemetry(armFrame(T0, 1), T0), { accepted: true });
  t.match(gate.ingestTelemetry(wristFrame(T0, 1, false), T0), { accepted: true });
  t.equal(gate.trapAndSign(armIntent(), T0 + 1).kind, 'signed');
  const r = gate.ingestTelemetry(wristFrame(T0 + 2, 2, true), T0 + 2);
  t.equal(r.stop?.setpoints.kind, 'stop', 'a signed STOP');
});
