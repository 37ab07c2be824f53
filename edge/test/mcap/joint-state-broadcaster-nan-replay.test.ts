/**
 * ros2_control's joint_state_broadcaster writes NaN for a state interface a joint does not have: every effort of a
 * robot without torque sensing, or the velocity and effort of a position-only gripper joint published beside the
 * arm's. Replayed, NaN is "not measured", never a value and never a reason to drop the arm's measurements:
 *   - effort NaN on every joint: the joint states are taken with no efforts, positions are judged, and the gate that
 *     needs efforts fails closed naming them (not "no joint-state frame");
 *   - a gripper joint the profile does not name with NaN velocity and effort: left out, and the arm's move is signed;
 *   - NaN on one profile joint while the others are measured, or ±Inf anywhere: the frame is refused (non-finite).
 */
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { T0, armIntent, makeGate } from '../trap/fixtures.js';
import {
  TOPICS,
  batteryMsg,
  firmwareMsg,
  jointStateMsg,
  openBag,
  scanMsg,
  trajectoryMsg,
} from '../transports/helpers/recordings.js';

type JointStateMsg = ReturnType<typeof jointStateMsg>;

/** 400 ms of a healthy cell whose joint states `recorded` rewrites, then a planned move. */
async function replayCell(t: Test, recorded: (m: JointStateMsg) => Record<string, unknown>) {
  const bag = join(t.testdir(), 'cell.mcap');
  const { gate, profile } = makeGate();
  const w = await openBag(bag);
  for (let dt = 0; dt <= 400; dt += 20) {
    const at = T0 + dt;
    await w.write(TOPICS.joints, recorded(jointStateMsg(profile, at)), at);
    await w.write(TOPICS.front, scanMsg(at, null), at);
    await w.write(TOPICS.rear, scanMsg(at, null), at);
    await w.write(TOPICS.battery, batteryMsg(at), at);
    if (dt === 0) await w.write(TOPICS.firmware, firmwareMsg(), at);
  }
  await w.write(TOPICS.intent, trajectoryMsg(armIntent(), T0 + 400), T0 + 400);
  await w.finish();
  return replayRecording({ bagPath: bag, profile, gate });
}

const nans = (xs: readonly number[]) => xs.map(() => Number.NaN);

t.test(
  'effort NaN on every joint (no effort interface): positions judged, effort said missing',
  async (t) => {
    const s = await replayCell(t, (m) => ({ ...m, effort: nans(m.effort) }));
    t.equal(s.error, undefined);
    t.equal(s.skipped.total, 0, JSON.stringify(s.skipped.examples));
    t.equal(s.telemetry.accepted, 4 * 21 + 1, 'every joint state taken');
    t.same(s.measured.notChecked, { effort: { frames: 21, why: 'joint_states has an empty effort array' } });
    t.same(s.verdicts.byOutcome, { vetoed: 1 });
    t.match(s.firstVeto?.violation, /^INVARIANT\.MISSING_DATA: no measured effort for /);
  },
);

t.test('a position-only gripper joint beside the arm: left out, the arm move signed', async (t) => {
  const s = await replayCell(t, (m) => ({
    ...m,
    name: [...m.name, 'gripper_finger_joint'],
    position: [...m.position, 0.02],
    velocity: [...m.velocity, Number.NaN],
    effort: [...m.effort, Number.NaN],
  }));
  t.equal(s.skipped.total, 0, JSON.stringify(s.skipped.examples));
  t.equal(s.telemetry.accepted, 4 * 21 + 1);
  t.same(s.verdicts.byOutcome, { signed: 1 });
  t.same(s.measured.notChecked, {});
});

t.test('NaN on one profile joint, or an infinite value: the joint state is refused', async (t) => {
  const oneJoint = await replayCell(t, (m) => ({
    ...m,
    effort: m.effort.map((e, i) => (i === 1 ? Number.NaN : e)),
  }));
  t.equal(oneJoint.skipped.byReason['non-finite'], 21);
  t.match(oneJoint.skipped.examples['non-finite'], /effort\[1\] \(\S+\): NaN, a value the gates read/);
  t.same(oneJoint.verdicts.byOutcome, { vetoed: 1 });
  const infinite = await replayCell(t, (m) => ({
    ...m,
    name: [...m.name, 'gripper_finger_joint'],
    position: [...m.position, Number.POSITIVE_INFINITY],
    velocity: [...m.velocity, 0],
    effort: [...m.effort, 0],
  }));
  t.equal(infinite.skipped.byReason['non-finite'], 21);
  t.match(infinite.skipped.examples['non-finite'], /position\[6\]: non-finite value Infinity/);
  t.same(infinite.verdicts.byOutcome, { vetoed: 1 });
});
