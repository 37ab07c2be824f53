/**
 * sensor_msgs/JointState carries every joint its publisher knows (joint_state_broadcaster publishes all of the
 * robot's joints): a mobile manipulator's /joint_states holds the arm's six and the gripper's finger_joint. The
 * gates take the profile's joints by name and ignore the others; a profile joint missing from the frame still
 * fails closed.
 */
import type { RobotProfile, TelemetryFrame } from '@pentagate/protocol';
import t from 'tap';
import { T0, armIntent, battery, firmware, jointState, makeGate, proximity } from '../trap/fixtures.js';

/** The profile's joints plus a gripper joint the profile does not name, in the order a driver might send them. */
function withFinger(profile: RobotProfile, at: number, effortsNm?: number[]): TelemetryFrame {
  const f = jointState(profile, at, undefined, effortsNm);
  if (f.kind !== 'joint-state') throw new Error('not a joint state');
  return {
    ...f,
    names: [...f.names.slice(0, 3), 'finger_joint', ...f.names.slice(3)],
    positionsRad: [...f.positionsRad.slice(0, 3), 0.04, ...f.positionsRad.slice(3)],
    velocitiesRadS: [...f.velocitiesRadS.slice(0, 3), 0, ...f.velocitiesRadS.slice(3)],
    effortsNm: [...f.effortsNm.slice(0, 3), 900, ...f.effortsNm.slice(3)],
  };
}

function feed(joints: (p: RobotProfile) => TelemetryFrame) {
  const setup = makeGate();
  const { gate, profile } = setup;
  const frames = [
    battery(profile.robotId, T0),
    firmware(profile.robotId, T0),
    joints(profile),
    ...profile.sources
      .filter((s) => s.kind === 'proximity')
      .map((s) => proximity(profile.robotId, s.name, T0, null)),
  ];
  const outcomes = frames.map((f) => gate.ingestTelemetry(f, T0));
  return { ...setup, outcomes, jointOutcome: outcomes[2]! };
}

t.test('a joint state with a gripper joint: the arm is judged, the gripper joint ignored', async (t) => {
  const { gate, jointOutcome } = feed((p) => withFinger(p, T0));
  t.match(jointOutcome, { accepted: true, newlyIgnoredJoints: ['finger_joint'] });
  const r = gate.trapAndSign(armIntent(), T0);
  t.equal(r.kind, 'signed', r.verdict.violations.join('; '));
  const invariant = r.verdict.gates.find((g) => g.vertex === 'INVARIANT');
  t.same(invariant?.evidence.ignoredJoints, ['finger_joint'], 'shown with the gate (diagnostics)');
  const next = gate.ingestTelemetry(withFinger(makeGate().profile, T0 + 1), T0 + 1);
  t.same(next, { accepted: true }, 'an ignored joint is reported once');
});

t.test('an over-torque on a profile joint beside a gripper joint is still caught', async (t) => {
  const { gate, profile } = feed((p) => withFinger(p, T0, [10, 40, 999, 2, 1, 0.5]));
  const r = gate.trapAndSign(armIntent(), T0);
  t.equal(r.kind, 'veto');
  t.match(r.verdict.violations, [
    new RegExp(`^INVARIANT.MEASURED_TORQUE: ${profile.joints[2]!.name} measured 999`),
  ]);
  t.notOk(
    r.verdict.violations.some((v) => v.includes('finger_joint')),
    "the gripper's 900 N·m is not judged against an arm limit",
  );
});

t.test('a profile joint missing from the joint state still fails closed', async (t) => {
  const { gate, profile, jointOutcome } = feed((p) => {
    const f = withFinger(p, T0);
    if (f.kind !== 'joint-state') throw new Error('not a joint state');
    const drop = f.names.indexOf(p.joints[5]!.name);
    const keep = <X>(xs: X[]) => xs.filter((_, i) => i !== drop);
    return {
      ...f,
      names: keep(f.names),
      positionsRad: keep(f.positionsRad),
      velocitiesRadS: keep(f.velocitiesRadS),
      effortsNm: keep(f.effortsNm),
    };
  });
  t.equal(jointOutcome.accepted, true, 'the frame is kept (another source may cover the joint)');
  const r = gate.trapAndSign(armIntent(), T0);
  t.equal(r.kind, 'veto');
  t.match(r.verdict.violations, [
    new RegExp(`^INVARIANT.MISSING_DATA: no fresh joint state for ${profile.joints[5]!.name}$`),
  ]);
});

t.test('a joint state of the gripper alone is refused: it is not the arm', async (t) => {
  const { jointOutcome } = feed((p) => ({
    ...jointState(p, T0),
    names: ['finger_joint'],
    positionsRad: [0.04],
    velocitiesRadS: [0],
    effortsNm: [1],
  }));
  t.match(jointOutcome, {
    accepted: false,
    reason: /^out-of-range: joint_states: none of its joints \(finger_joint\) is in the profile/,
  });
});
