/**
 * A trajectory whose first point is at time_from_start 0: the start state, as MoveIt writes every planned
 * trajectory (its time parameterisation puts the robot's current state first, at t = 0) and as
 * joint_trajectory_controller takes it (commanded at once). Taken when that point is the measured position
 * (within MoveIt's default start tolerance, 0.01 rad); a start point elsewhere is a jump the controller would
 * make at once, so INVARIANT vetoes it as a velocity the joint cannot have. Only the first point may sit at 0.
 */
import type { Intent } from '@pentagate/protocol';
import t from 'tap';
import { RosMessageMapper } from '../../src/ros/message-mapping.js';
import { bindRole } from '../../src/ros/ros-bindings.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { throughCdr } from '../ros/helpers/ros-messages.js';
import { HOME, T0, armIntent, armProfile, feedHealthy, makeGate } from '../trap/fixtures.js';
import { trajectoryMsg } from '../transports/helpers/recordings.js';

type ArmIntent = Extract<Intent, { kind: 'joint-trajectory' }>;

/** armIntent() with a start point at time 0 at `startRad` (planned efforts as the other points'). */
function withStartPoint(startRad: readonly number[]): ArmIntent {
  const intent = armIntent();
  return {
    ...intent,
    points: [
      { positionsRad: [...startRad], effortsNm: [20, 60, 30, 5, 2, 1], timeFromStartMs: 0 },
      ...intent.points,
    ],
  };
}

function judge(intent: ArmIntent) {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  return gate.trapAndSign(intent, T0 + 1);
}

const invariant = (r: ReturnType<typeof judge>) => r.verdict.gates.find((g) => g.vertex === 'INVARIANT');

t.test('a start point at t = 0 on the measured position is taken, and the move is signed', async (t) => {
  const r = judge(withStartPoint(HOME.map((q, i) => (i === 2 ? q + 0.005 : q))));
  t.equal(r.kind, 'signed', JSON.stringify(r.verdict.gates.flatMap((g) => g.violations)));
  if (r.kind === 'signed' && r.command.setpoints.kind === 'joint') {
    t.equal(r.command.setpoints.points.length, 3, 'the command carries every point, the start point first');
  }
});

t.test('a start point at t = 0 away from the measured position is a jump: vetoed', async (t) => {
  const r = judge(withStartPoint(HOME.map((q, i) => (i === 0 ? q + 0.3 : q))));
  t.equal(r.kind, 'veto');
  t.match(invariant(r)?.violations, [
    /^INVARIANT\.VELOCITY_LIMIT: shoulder_pan_joint: the point at time_from_start 0 is 0\.300 rad from the measured 0\.000 rad/,
  ]);
});

t.test(
  'a point at t = 0 after the first, or a trajectory of that point alone, is still refused',
  async (t) => {
    const intent = withStartPoint(HOME);
    const twice: ArmIntent = {
      ...intent,
      points: [intent.points[0]!, intent.points[0]!, ...intent.points.slice(1)],
    };
    const r = judge(twice);
    t.equal(r.verdict.outcome, 'rejected-input');
    t.match(r.verdict.violations?.[0] ?? '', /points\[1\]\.timeFromStartMs: expected > 0/);
    const alone = judge({ ...intent, points: [intent.points[0]!] });
    t.equal(alone.verdict.outcome, 'rejected-input', 'a start point and nothing to do');
  },
);

t.test(
  'a MoveIt-shaped JointTrajectory from ROS 2 (start state at 0 s) reaches the gate and is signed',
  async (t) => {
    const profile = armProfile();
    const b = bindRole(profile, 'intent', '/pentagate/intent', undefined, {}, ROS_TYPES.jointTrajectory);
    const mapped = new RosMessageMapper({ robotId: profile.robotId }).map(
      b,
      throughCdr(b.type, trajectoryMsg(withStartPoint(HOME), T0)),
      T0 + 1,
      b.type,
    );
    if (mapped.kind !== 'intent') throw new Error(`not an intent: ${JSON.stringify(mapped)}`);
    t.equal(mapped.intent.kind === 'joint-trajectory' && mapped.intent.points[0]?.timeFromStartMs, 0);
    t.equal(judge(mapped.intent as ArmIntent).kind, 'signed');
  },
);
