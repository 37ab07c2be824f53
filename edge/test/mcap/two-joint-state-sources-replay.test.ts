/**
 * Two joint-state sources carrying the same joint names: what `edge profile init` makes of a bag holding two
 * identical arms (`/joint_states` and `/robot2/joint_states`, the same UR joint names under two namespaces), or of a
 * Franka bag (`/franka/joint_states` beside the merged `/joint_states`). The gates merged the sources joint by joint,
 * the later source silently overwriting the earlier: robot1's elbow measuring more than its torque limit was read
 * as robot2's nominal effort, and robot1's move was signed. Which source measures a joint is now in doubt, and the
 * gates that read joints fail closed naming the joint and both sources.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { parse as parseYaml } from 'yaml';
import { replayRecording } from '../../src/mcap/replay.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { cli } from '../runtime/helpers/run-edge-cli.js';
import { T0, armIntent, armProfile, makeGate } from '../trap/fixtures.js';
import {
  TOPICS,
  batteryMsg,
  firmwareMsg,
  jointStateMsg,
  openBag,
  scanMsg,
  trajectoryMsg,
} from '../transports/helpers/recordings.js';

const ROBOT2 = '/robot2/joint_states';

const twoArmProfile = () =>
  armProfile((p) => {
    p.sources.push({ name: 'robot2_joint_states', kind: 'joint-state', maxAgeMs: 50 });
    const ros2 = p.topics?.ros2;
    if (!ros2) throw new Error('the arm profile names its ROS 2 topics');
    ros2.robot2JointStates = {
      name: ROBOT2,
      qos: { reliability: 'best-effort', durability: 'volatile', depth: 5 },
    };
  });

t.test(
  'a joint two sources measure is in doubt: the move is vetoed, not judged on the other arm',
  async (t) => {
    const path = join(t.testdir(), 'two-arms.mcap');
    const { gate, profile } = makeGate(twoArmProfile());
    const elbow = profile.joints[2]!;
    const bag = await openBag(path);
    await bag.rosChannel(ROBOT2, ROS_TYPES.jointState);
    for (let dt = 0; dt <= 400; dt += 20) {
      const at = T0 + dt;
      // robot1's elbow strains past its limit; robot2, the same arm, measures nominal efforts.
      await bag.write(
        TOPICS.joints,
        jointStateMsg(profile, at, [10, 40, elbow.torqueLimitNm + 30, 2, 1, 0.5]),
        at,
      );
      await bag.write(ROBOT2, jointStateMsg(profile, at), at + 1);
      await bag.write(TOPICS.front, scanMsg(at, null), at);
      await bag.write(TOPICS.rear, scanMsg(at, null), at);
      if (dt % 100 === 0) await bag.write(TOPICS.battery, batteryMsg(at), at);
      if (dt % 200 === 0) await bag.write(TOPICS.firmware, firmwareMsg(), at);
      if (dt === 300) await bag.write(TOPICS.intent, trajectoryMsg(armIntent(), at), at + 2);
    }
    await bag.finish();
    const s = await replayRecording({ bagPath: path, profile, gate });
    t.equal(s.error, undefined);
    t.equal(s.intents, 1);
    t.equal(s.commands.motion, 0, 'nothing signed');
    t.equal(s.verdicts.byOutcome.vetoed, 1);
    t.match(s.firstVeto, { outcome: 'vetoed' });
    t.match(
      s.firstFailureByVertex.INVARIANT?.violation,
      new RegExp(
        `^INVARIANT\\.MISSING_DATA: .*\\b${elbow.name}\\b.* are measured by two joint-state sources, joint_states and robot2_joint_states: which one is this robot's is in doubt`,
      ),
    );
  },
);

t.test('profile init offers one joint-state source: the second arm is listed, not a source', async (t) => {
  const dir = t.testdir();
  const path = join(dir, 'two-arms.mcap');
  const profile = armProfile();
  const bag = await openBag(path);
  await bag.rosChannel(ROBOT2, ROS_TYPES.jointState);
  for (let dt = 0; dt <= 100; dt += 20) {
    const at = T0 + dt;
    await bag.write(TOPICS.joints, jointStateMsg(profile, at, [10, 40, 20, 2, 1, 0.5]), at);
    await bag.write(ROBOT2, jointStateMsg(profile, at, [10, 40, 120, 2, 1, 0.5]), at + 1);
  }
  await bag.finish();
  const out = join(dir, 'skeleton.yaml');
  const r = await cli(['edge', 'profile', 'init', '--from-bag', path, '--out', out]);
  t.equal(r.code, 0, r.err);
  const text = await readFile(out, 'utf8');
  const doc = parseYaml(text) as { sources: { name: string; kind: string }[] };
  t.same(
    doc.sources.filter((s) => s.kind === 'joint-state').map((s) => s.name),
    ['joint_states'],
  );
  t.match(
    text,
    /^#\s+\/robot2\/joint_states \[sensor_msgs\/msg\/JointState\] carries joints of \/joint_states \(/m,
  );
  t.match(
    text,
    /elbow_joint: efforts seen up to 20\.000 N·m/,
    "the efforts are the first arm's, not the second's",
  );
});
