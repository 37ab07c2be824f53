/** `edge profile init --from-bag` on a mobile base's recording of the newer message types. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { parse as parseYaml } from 'yaml';
import { McapFileSink } from '../../src/mcap/mcap-file-sink.js';
import { RosbagWriter } from '../../src/mcap/rosbag-writer.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0 } from '../trap/fixtures.js';
import { ackermannMsg, cloudMsg, imuMsg, odometryMsg } from '../ros/helpers/ros-messages.js';
import { cli } from '../runtime/helpers/run-edge-cli.js';

t.test(
  'Odometry and PointCloud2 become sources, Ackermann the intent; their bindings are spelled out',
  async (t) => {
    const dir = t.testdir();
    const bag = join(dir, 'car.mcap');
    const sink = await McapFileSink.create(bag);
    const w = await RosbagWriter.open({ writable: sink });
    await w.rosChannel('/odometry/global', ROS_TYPES.odometry);
    await w.rosChannel('/lidar/points', ROS_TYPES.pointCloud2);
    await w.rosChannel('/ackermann_cmd', ROS_TYPES.ackermannDriveStamped);
    await w.rosChannel('/imu', ROS_TYPES.imu);
    await w.write('/odometry/global', odometryMsg(T0, { x: 1, y: 2 }), T0);
    await w.write('/lidar/points', cloudMsg(T0, [[3, 0, 1]]), T0);
    await w.write('/ackermann_cmd', ackermannMsg(T0, 1, 0.1), T0);
    await w.write('/imu', imuMsg(T0), T0);
    await w.end();
    await sink.close();
    const out = join(dir, 'car.yaml');
    const r = await cli(['edge', 'profile', 'init', '--from-bag', bag, '--out', out, '--robot-id', 'car-1']);
    t.equal(r.code, 0, r.err);
    const text = await readFile(out, 'utf8');
    const doc = parseYaml(text) as {
      kind: string;
      sources: { name: string; kind: string }[];
      topics: { ros2: Record<string, { name: string }> };
    };
    t.equal(doc.kind, 'mobile-base', 'an Ackermann command stream makes it a base');
    t.same(doc.sources.map((s) => `${s.name}:${s.kind}`).sort(), [
      'firmware:firmware',
      'global:pose',
      'points:proximity',
    ]);
    t.match(doc.topics.ros2, {
      global: { name: '/odometry/global' },
      points: { name: '/lidar/points' },
      intent: { name: '/ackermann_cmd' },
    });
    t.match(text, /# Roles whose type is not the default need a --bindings file/);
    t.match(text, /#\s+global: \{ type: nav_msgs\/msg\/Odometry \}/);
    t.match(text, /#\s+points: \{ type: sensor_msgs\/msg\/PointCloud2 \}/);
    t.match(text, /#\s+intent: \{ type: ackermann_msgs\/msg\/AckermannDriveStamped, wheelbaseM: null \}/);
    t.match(
      text,
      /#\s+\/imu \[sensor_msgs\/msg\/Imu\] 1 message$/m,
      'the IMU is listed among the topics not read',
    );
  },
);
