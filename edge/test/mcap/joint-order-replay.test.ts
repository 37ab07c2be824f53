/**
 * Joint states and trajectories that list the joints in another order than the profile (ros2_control publishes
 * joint_states in the order of its hardware interfaces, often alphabetical): every value is judged against the
 * joint it names, not the profile's joint at its index.
 */
import { join } from 'node:path';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { HOME, T0, armIntent, makeGate } from '../trap/fixtures.js';
import {
  TOPICS,
  batteryMsg,
  firmwareMsg,
  jointStateMsg,
  openBag,
  scanMsg,
  trajectoryMsg,
} from '../transports/helpers/recordings.js';

type TapTest = Parameters<Parameters<typeof t.test>[0]>[0];

/** `xs` listed in the order `order` (indices into the profile's joints). */
const inOrder = <T>(xs: readonly T[], order: readonly number[]) => order.map((i) => xs[i]!);

async function replayCell(
  t: TapTest,
  order: readonly number[],
  effortNm: (profileEfforts: number[]) => number[],
  intentPositionsRad: number[],
) {
  const bag = join(t.testdir(), 'reordered.mcap');
  const { gate, profile } = makeGate();
  const w = await openBag(bag);
  for (let dt = 0; dt <= 400; dt += 20) {
    const at = T0 + dt;
    const js = jointStateMsg(profile, at, effortNm([10, 40, 20, 2, 1, 0.5]));
    await w.write(
      TOPICS.joints,
      {
        ...js,
        name: inOrder(js.name, order),
        position: inOrder(js.position, order),
        velocity: inOrder(js.velocity, order),
        effort: inOrder(js.effort, order),
      },
      at,
    );
    await w.write(TOPICS.front, scanMsg(at, null), at);
    await w.write(TOPICS.rear, scanMsg(at, null), at);
    if (dt % 100 === 0) await w.write(TOPICS.battery, batteryMsg(at), at);
    if (dt % 500 === 0) await w.write(TOPICS.firmware, firmwareMsg(), at);
    if (dt === 200) {
      const intent = armIntent();
      const reordered = {
        ...intent,
        jointNames: inOrder(intent.jointNames, order),
        points: intent.points.map((p, k) => ({
          ...p,
          positionsRad: inOrder(k === 1 ? intentPositionsRad : p.positionsRad, order),
          effortsNm: inOrder(p.effortsNm ?? [], order),
        })),
      };
      await w.write(TOPICS.intent, trajectoryMsg(reordered, at + 1), at + 1);
    }
  }
  await w.finish();
  return { s: await replayRecording({ bagPath: bag, profile, gate }), profile };
}

const REVERSED = [5, 4, 3, 2, 1, 0];

t.test('reversed joint order: the home pose and a small move are read as such and signed', async (t) => {
  const small = HOME.map((q, i) => (i === 0 ? q + 0.4 : q));
  const { s } = await replayCell(t, REVERSED, (e) => e, small);
  t.equal(s.error, undefined);
  t.equal(s.telemetry.accepted, 21 + 21 * 2 + 5 + 1, 'every joint state, scan, battery and firmware report');
  t.same(s.measured.breaches, [], 'HOME read by name is within every limit');
  t.equal(s.commands.motion, 1, 'the trajectory starts where the arm is');
});

t.test('reversed joint order: an over-torque and an out-of-limit target name the right joint', async (t) => {
  const { profile } = makeGate();
  const elbow = profile.joints[2]!;
  const beyond = HOME.map((q, i) => (i === 2 ? elbow.positionLimitsRad.max + 0.5 : q));
  const { s } = await replayCell(
    t,
    REVERSED,
    (e) => e.map((x, i) => (i === 2 ? elbow.torqueLimitNm + 30 : x)),
    beyond,
  );
  t.equal(s.commands.motion, 0);
  t.equal(s.verdicts.byOutcome.vetoed, 1);
  t.match(s.firstVeto?.violation, new RegExp(elbow.name));
  t.match(s.measured.breaches, [{ check: 'effort', subject: elbow.name }]);
});
