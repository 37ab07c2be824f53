/**
 * A rosbag2 writer that finds no definition for a type (its package's .msg files are not installed where the
 * recorder runs) records the topic anyway: rosbag2_cpp's SequentialWriter warns "Message definition ... will be
 * left empty in bag" and writes an empty definition with an empty encoding, which rosbag2_storage_mcap stores as a
 * schema record of encoding "" and no data. Such a topic of a standard type decodes with the bundled definition,
 * as the same bag in sqlite3 does.
 */
import { join } from 'node:path';
import { MessageWriter } from '@foxglove/rosmsg2-serialization';
import { parse as parseMsgDefinition } from '@foxglove/rosmsg';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { ros2msgSchema } from '../../src/ros/ros-message-definitions.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, makeGate } from '../trap/fixtures.js';
import { TOPICS, jointStateMsg, openRawMcap } from '../transports/helpers/recordings.js';

t.test('a schema rosbag2 left empty (encoding "") decodes with the bundled definition', async (t) => {
  const path = join(t.testdir(), 'no-definitions.mcap');
  const { gate, profile } = makeGate();
  const w = await openRawMcap(path);
  const leftEmpty = (name: string) => w.registerSchema({ name, encoding: '', data: new Uint8Array() });
  const joints = await w.registerChannel({
    topic: TOPICS.joints,
    schemaId: await leftEmpty(ROS_TYPES.jointState),
    messageEncoding: 'cdr',
    metadata: new Map(),
  });
  const jointWriter = new MessageWriter(
    parseMsgDefinition(ros2msgSchema(ROS_TYPES.jointState)!, { ros2: true }),
  );
  // an over-torque on the shoulder: the values decoded are the ones written
  const over = jointStateMsg(profile, T0, [10, 9999, 20, 2, 1, 0.5]);
  let sequence = 0;
  const add = (channelId: number, data: Uint8Array) =>
    w.addMessage({
      channelId,
      sequence: ++sequence,
      logTime: BigInt(T0) * 1_000_000n,
      publishTime: BigInt(T0) * 1_000_000n,
      data,
    });
  await add(joints, jointWriter.writeMessage(over));
  await w.finish();

  const s = await replayRecording({ bagPath: path, profile, gate });
  t.equal(s.error, undefined);
  t.equal(s.telemetry.accepted, 1, JSON.stringify(s.skipped.examples));
  t.match(s.measured.breaches, [{ check: 'effort', subject: profile.joints[1]!.name, value: 9999 }]);
  t.equal(s.skipped.total, 0);
});
