/**
 * `edge profile init` on a robot with two safety scanners whose topics end in the same segment
 * (`/safety/lidar_front/scan`, `/safety/lidar_rear/scan`) and two command topics: the skeleton is valid YAML with
 * one source and one role per scanner, and `edge check` finds nothing wrong with it but the limits to fill in.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { parse as parseYaml } from 'yaml';
import { McapFileSink } from '../../src/mcap/mcap-file-sink.js';
import { RosbagWriter } from '../../src/mcap/rosbag-writer.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, armIntent, makeGate } from '../trap/fixtures.js';
import { cli } from '../runtime/helpers/run-edge-cli.js';
import { jointStateMsg, scanMsg, trajectoryMsg } from '../transports/helpers/recordings.js';

t.test('sensor topics with the same last segment get distinct sources and roles', async (t) => {
  const dir = t.testdir();
  const bag = join(dir, 'cell.mcap');
  const { profile } = makeGate();
  const sink = await McapFileSink.create(bag);
  const w = await RosbagWriter.open({ writable: sink });
  const scans = ['/safety/lidar_front/scan', '/safety/lidar_rear/scan', '/scan'];
  await w.rosChannel('/joint_states', ROS_TYPES.jointState);
  for (const topic of scans) await w.rosChannel(topic, ROS_TYPES.laserScan);
  await w.rosChannel('/arm/joint_trajectory', ROS_TYPES.jointTrajectory);
  await w.rosChannel('/gripper/joint_trajectory', ROS_TYPES.jointTrajectory);
  await w.write('/joint_states', jointStateMsg(profile, T0), T0);
  for (const topic of scans) await w.write(topic, scanMsg(T0, null), T0);
  await w.write('/arm/joint_trajectory', trajectoryMsg(armIntent(), T0), T0);
  await w.write('/gripper/joint_trajectory', trajectoryMsg(armIntent(), T0), T0);
  await w.end();
  await sink.close();

  const out = join(dir, 'robot.yaml');
  const r = await cli(['edge', 'profile', 'init', '--from-bag', bag, '--out', out]);
  t.equal(r.code, 0, r.err);
  const doc = parseYaml(await readFile(out, 'utf8')) as {
    sources: { name: string }[];
    topics: { ros2: Record<string, { name: string }> };
  };
  t.same(doc.sources.map((s) => s.name).sort(), [
    'firmware',
    'joint_states',
    'lidar_front_scan',
    'lidar_rear_scan',
    'scan',
  ]);
  t.match(doc.topics.ros2, {
    lidarFrontScan: { name: '/safety/lidar_front/scan' },
    lidarRearScan: { name: '/safety/lidar_rear/scan' },
    scan: { name: '/scan' },
    intent: { name: '/arm/joint_trajectory' },
  });

  const check = await cli(['edge', 'check', '--profile', out, '--json']);
  t.equal(check.code, 1, 'the limits are still to fill in');
  const { problems } = JSON.parse(check.out) as { problems: { path: string; message: string }[] };
  t.ok(problems.length > 0);
  t.same(
    problems.filter(
      (p) => /^(sources|topics|joints\[\d+\]\.name)/.test(p.path) || /unique|duplicate/i.test(p.message),
    ),
    [],
    'the sources, roles and names are sound: what is left is limits to fill in',
  );
});
