/**
 * A recording's own definition of a standard type decodes its bytes, so one that re-labels the type's fields
 * re-labels the data: a LaserScan whose definition swaps `ranges` and `intensities` hid a person at 0.5 m behind
 * intensities of 5.0 (outside review). Every bundled field must keep its type and order in the recorded
 * definition (standard-definition.ts); fields a later distribution adds are allowed. A topic that breaks this is
 * refused as `bad-schema`, its source stays missing, and RISK vetoes.
 */
import { join } from 'node:path';
import { MessageWriter } from '@foxglove/rosmsg2-serialization';
import { parse as parseMsgDefinition } from '@foxglove/rosmsg';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { ros2msgSchema } from '../../src/ros/ros-message-definitions.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { standardDefinitionProblem } from '../../src/ros/standard-definition.js';
import { T0, makeGate } from '../trap/fixtures.js';
import { TOPICS, openRawMcap, scanMsg } from '../transports/helpers/recordings.js';

const SCAN = ros2msgSchema(ROS_TYPES.laserScan)!;
const swapped = SCAN.replace('float32[] ranges', 'float32[] @@')
  .replace('float32[] intensities', 'float32[] ranges')
  .replace('float32[] @@', 'float32[] intensities');

t.test(
  'the standard definition, and one with a field a later distribution adds, are the standard type',
  async (t) => {
    t.equal(standardDefinitionProblem(ROS_TYPES.laserScan, SCAN), undefined);
    const added = SCAN.replace('float32[] intensities', 'float32[] intensities\nfloat32 variance');
    t.equal(standardDefinitionProblem(ROS_TYPES.laserScan, added), undefined, 'an added field');
    t.equal(
      standardDefinitionProblem('my_msgs/msg/Scan', swapped),
      undefined,
      'a type the edge does not bundle',
    );
  },
);

t.test('a definition that swaps, retypes or drops a standard field is not', async (t) => {
  t.match(
    standardDefinitionProblem(ROS_TYPES.laserScan, swapped),
    /in sensor_msgs\/LaserScan, the standard field float32\[\] intensities is missing or out of place/,
  );
  const retyped = SCAN.replace('float32 range_max', 'float64 range_max');
  t.match(
    standardDefinitionProblem(ROS_TYPES.laserScan, retyped),
    /float32 range_max is missing or out of place/,
  );
  const twist = ros2msgSchema(ROS_TYPES.twist)!;
  const nested = twist.replace(/float64 x\nfloat64 y/, 'float64 y\nfloat64 x');
  t.match(
    standardDefinitionProblem(ROS_TYPES.twist, nested),
    /in geometry_msgs\/Vector3, the standard field float64 y/,
    'in a nested standard type too',
  );
});

t.test('replay refuses a scan topic whose definition re-labels its ranges', async (t) => {
  const path = join(t.testdir(), 'relabelled.mcap');
  const { gate, profile } = makeGate();
  const w = await openRawMcap(path);
  const schemaId = await w.registerSchema({
    name: ROS_TYPES.laserScan,
    encoding: 'ros2msg',
    data: new TextEncoder().encode(swapped),
  });
  const channelId = await w.registerChannel({
    topic: TOPICS.front,
    schemaId,
    messageEncoding: 'cdr',
    metadata: new Map(),
  });
  const writer = new MessageWriter(parseMsgDefinition(swapped, { ros2: true }));
  for (let i = 0; i < 3; i++) {
    const at = BigInt(T0 + 20 * i) * 1_000_000n;
    await w.addMessage({
      channelId,
      sequence: i + 1,
      logTime: at,
      publishTime: at,
      data: writer.writeMessage(scanMsg(T0 + 20 * i, 0.5)),
    });
  }
  await w.finish();
  const s = await replayRecording({ bagPath: path, profile, gate });
  t.equal(s.error, undefined);
  t.equal(s.telemetry.accepted, 0, 'no frame of the topic is taken');
  t.match(
    JSON.stringify(s),
    /the recording's definition of sensor_msgs\/msg\/LaserScan is not the standard one/,
  );
});
