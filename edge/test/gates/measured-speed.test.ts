/**
 * A joint measured faster than its velocity limit (beyond MEASURED_SPEED_MARGIN for overshoot and noise) when
 * a move is asked for: the arm is already moving faster than it may — a runaway joint or a broken encoder —
 * and no move is signed on that state (outside robot review: 50 rad/s on a 3.14 rad/s joint was signed).
 */
import t from 'tap';
import { MEASURED_SPEED_MARGIN } from '../../src/gates/invariant.js';
import { T0, armIntent, feedHealthy, jointState, makeGate } from '../trap/fixtures.js';

function judgeWithSpeed(joint: number, speedRadS: number) {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  const frame = jointState(profile, T0 + 1);
  if (frame.kind !== 'joint-state') throw new Error('expected a joint state');
  frame.seq += 1;
  frame.velocitiesRadS[joint] = speedRadS;
  const accepted = gate.ingestTelemetry(frame, T0 + 1);
  if (!accepted.accepted) throw new Error(`frame refused: ${accepted.reason}`);
  return {
    verdict: gate.trapAndSign(armIntent(), T0 + 2).verdict,
    limit: profile.joints[joint]!.velocityLimitRadS,
  };
}

t.test('a joint measured over its speed limit before the move: vetoed', async (t) => {
  const runaway = judgeWithSpeed(0, 50);
  t.equal(runaway.verdict.outcome, 'vetoed');
  t.match(
    runaway.verdict.violations.join('\n'),
    /INVARIANT\.VELOCITY_LIMIT: \S+ measured 50\.000 rad\/s > its limit \+ 10 % [\d.]+ rad\/s before the move/,
  );
  const { limit } = judgeWithSpeed(0, 0);
  const justOver = judgeWithSpeed(0, -limit * MEASURED_SPEED_MARGIN * 1.001);
  t.equal(justOver.verdict.outcome, 'vetoed', 'either direction, just over the margin');
});

t.test('a joint moving within its limit and margin: the move is signed', async (t) => {
  const { limit } = judgeWithSpeed(0, 0);
  const atLimit = judgeWithSpeed(0, limit);
  t.equal(atLimit.verdict.outcome, 'signed', atLimit.verdict.violations.join('\n'));
  const inMargin = judgeWithSpeed(0, limit * MEASURED_SPEED_MARGIN * 0.999);
  t.equal(inMargin.verdict.outcome, 'signed', inMargin.verdict.violations.join('\n'));
});
