/**
 * `edge profile init` on a Nav2 base's recording: wheel odometry on `/odom` (nav_msgs/Odometry in REP 105's `odom`
 * frame, first in the file) and the localizer's map-frame pose on `/amcl_pose`, with `/tf`, on simulated time. The
 * layout is that of a real TurtleBot 3 recording under Nav2 in Gazebo (evo's `test/data/nav2_turtlebot.mcap`,
 * github.com/MichaelGrupp/evo at 26d0953d4da0f0cb56f90ba6269a15e72f69d3ad, GPL-3.0, so not vendored here; set
 * EDGE_NAV2_TURTLEBOT_MCAP to its path to run the last test on the file itself): the same topics, types, order,
 * frames and stamps of its first messages.
 *
 * Both pose topics used to become pose sources, `/odom` first; the gates read the first pose source only, and every
 * odom-frame pose is refused (`wrong-frame`), so a profile filled in from the skeleton vetoed every drive for want of
 * a pose while the localizer's pose went unread. Now the odom-frame topic is not offered, and says why.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { parse as parseYaml } from 'yaml';
import { McapFileSink } from '../../src/mcap/mcap-file-sink.js';
import { RosbagWriter } from '../../src/mcap/rosbag-writer.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { odometryMsg, poseWithCovarianceMsg } from '../ros/helpers/ros-messages.js';
import { cli } from '../runtime/helpers/run-edge-cli.js';

/** The recording's log times (2026-05-08, wall clock) and its stamps (Gazebo's clock, 928.8 s). */
const LOG0 = Date.UTC(2026, 4, 8, 9, 59, 13, 382);
const SIM0 = 928_800;

async function nav2Recording(path: string): Promise<void> {
  const sink = await McapFileSink.create(path);
  const bag = await RosbagWriter.open({ writable: sink });
  await bag.rosChannel('/odom', ROS_TYPES.odometry);
  await bag.rosChannel('/amcl_pose', ROS_TYPES.poseWithCovarianceStamped);
  // 3 s: odometry every 35 ms; AMCL on its filter updates, 600 ms apart (once 1200 ms: the base stood still).
  for (let ms = 0; ms <= 3000; ms += 5) {
    const at = LOG0 + ms;
    if (ms % 35 === 0) {
      await bag.write('/odom', odometryMsg(SIM0 + ms, { x: -2.8, y: 1.1 }, 0.17, {}, 'odom'), at);
    }
    // Stamped with the scan it was made from, earlier than the odometry stored before it.
    if (ms > 0 && ms % 600 === 0 && ms !== 1800) {
      await bag.write('/amcl_pose', poseWithCovarianceMsg(SIM0 + ms - 300, { x: 4.37, y: 7.58 }), at);
    }
  }
  await bag.end();
  await sink.close();
}

interface Skeleton {
  sources: { name: string; kind: string; maxAgeMs: number | null }[];
  topics: { ros2: Record<string, { name: string }> };
}

/** The skeleton of `bag`, written into `dir` (t.testdir() empties the directory each time it is called). */
async function skeletonOf(t: Test, bag: string, dir: string) {
  const out = join(dir, 'skeleton.yaml');
  const r = await cli(['edge', 'profile', 'init', '--from-bag', bag, '--out', out]);
  t.equal(r.code, 0, r.err);
  const text = await readFile(out, 'utf8');
  return { text, doc: parseYaml(text) as Skeleton };
}

function checkSkeleton(t: Test, text: string, doc: Skeleton): void {
  const poses = doc.sources.filter((s) => s.kind === 'pose');
  t.same(
    poses.map((s) => s.name),
    ['amcl_pose'],
    'one pose source, the map-frame localizer pose',
  );
  t.equal(
    poses[0]?.maxAgeMs,
    null,
    'AMCL publishes more rarely than 200 ms: the age limit is left to choose',
  );
  t.match(
    text,
    /^ {2}- \{ name: amcl_pose, kind: pose, maxAgeMs: null \} # \/amcl_pose \[geometry_msgs\/msg\/PoseWithCovarianceStamped\]; a message every \d+ ms \(median\), up to \d+ ms apart: longer than the usual 200 ms/m,
  );
  t.match(doc.topics.ros2.amclPose, { name: '/amcl_pose' }, 'its role');
  t.notOk(
    Object.values(doc.topics.ros2).some((r) => r.name === '/odom'),
    'no role reads the odom-frame odometry',
  );
  t.match(
    text,
    /^#\s+\/odom \[nav_msgs\/msg\/Odometry\] is in the odom frame \(REP 105\) \(frame_id "odom"\).*wrong-frame.*frameId: odom$/m,
    'the odometry topic is listed with why it is not the pose source',
  );
}

t.test('a Nav2 recording: the localizer pose is the pose source, odom-frame odometry is not', async (t) => {
  const dir = t.testdir();
  const bag = join(dir, 'nav2.mcap');
  await nav2Recording(bag);
  const { text, doc } = await skeletonOf(t, bag, dir);
  checkSkeleton(t, text, doc);
  t.match(text, /# \/amcl_pose .*; a message every 600 ms \(median\), up to 1200 ms apart: /);
});

t.test('two map-frame pose topics: the first is offered, the other listed to choose', async (t) => {
  const dir = t.testdir();
  const bag = join(dir, 'two.mcap');
  const sink = await McapFileSink.create(bag);
  const w = await RosbagWriter.open({ writable: sink });
  await w.rosChannel('/odometry/global', ROS_TYPES.odometry);
  await w.rosChannel('/amcl_pose', ROS_TYPES.poseWithCovarianceStamped);
  await w.write('/odometry/global', odometryMsg(LOG0, { x: 1, y: 2 }), LOG0);
  await w.write('/amcl_pose', poseWithCovarianceMsg(LOG0, { x: 1, y: 2 }), LOG0 + 10);
  await w.end();
  await sink.close();
  const { text, doc } = await skeletonOf(t, bag, dir);
  t.same(
    doc.sources.filter((s) => s.kind === 'pose').map((s) => s.name),
    ['global'],
    'the gates read one pose source: one is offered',
  );
  t.match(
    text,
    /^#\s+\/amcl_pose \[geometry_msgs\/msg\/PoseWithCovarianceStamped\] is another pose topic; \/odometry\/global was offered \(choose one\)$/m,
  );
});

const realBag = process.env.EDGE_NAV2_TURTLEBOT_MCAP;
t.test(
  'the real TurtleBot 3 recording',
  { skip: realBag ? false : 'EDGE_NAV2_TURTLEBOT_MCAP is not set (evo test/data/nav2_turtlebot.mcap)' },
  async (t) => {
    const { text, doc } = await skeletonOf(t, realBag!, t.testdir());
    checkSkeleton(t, text, doc);
  },
);
