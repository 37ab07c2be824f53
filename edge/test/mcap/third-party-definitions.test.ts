/**
 * Recordings written by third-party writers whose concatenated `ros2msg` definitions spell type names in both
 * forms: `MSG: std_msgs/msg/Header` for a field typed `std_msgs/Header`, or the other way round. The layout is the
 * same, so they decode (and the values are the ones written: an over-torque is found); a text that lacks a
 * dependency is still refused, naming what is missing.
 */
import { join } from 'node:path';
import { MessageWriter } from '@foxglove/rosmsg2-serialization';
import { parse as parseMsgDefinition } from '@foxglove/rosmsg';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { ros2msgSchema, unifyTypeNames } from '../../src/ros/ros-message-definitions.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, makeGate } from '../trap/fixtures.js';
import { Db3Writer } from '../transports/helpers/db3-writer.js';
import { TOPICS, jointStateMsg, openRawMcap, scanMsg } from '../transports/helpers/recordings.js';

const SEPARATOR = '='.repeat(80);

/** JointState as a writer that names sections `pkg/msg/Type` and fields `pkg/Type` would write it. */
const JOINT_STATE_LONG_SECTIONS = [
  'std_msgs/Header header',
  'string[] name',
  'float64[] position',
  'float64[] velocity',
  'float64[] effort',
  SEPARATOR,
  'MSG: std_msgs/msg/Header',
  'builtin_interfaces/Time stamp',
  'string frame_id',
  SEPARATOR,
  'MSG: builtin_interfaces/msg/Time',
  'int32 sec',
  'uint32 nanosec',
  '',
].join('\n');

/** LaserScan the other way round: fields `pkg/msg/Type`, sections `pkg/Type`, and a relative `Header`. */
const LASER_SCAN_LONG_FIELDS = (ros2msgSchema(ROS_TYPES.laserScan) ?? '')
  .replace('std_msgs/Header header', 'std_msgs/msg/Header header')
  .replace('builtin_interfaces/Time stamp', 'builtin_interfaces/msg/Time stamp');

/** A LaserScan text without its Header section: incomplete, whatever the spelling. */
const LASER_SCAN_INCOMPLETE = LASER_SCAN_LONG_FIELDS.slice(0, LASER_SCAN_LONG_FIELDS.indexOf(SEPARATOR));

t.test('unifyTypeNames changes type names only', async (t) => {
  t.equal(
    unifyTypeNames(
      'std_msgs/msg/Header header # a std_msgs/msg/Header\ngeometry_msgs/msg/Point[<=3] pts\nstring S="a/msg/b"\n#std_msgs/msg/X\n  MSG: std_msgs/msg/Header\n',
    ),
    'std_msgs/Header header # a std_msgs/msg/Header\ngeometry_msgs/Point[<=3] pts\nstring S="a/msg/b"\n#std_msgs/msg/X\n  MSG: std_msgs/Header\n',
  );
});

t.test(
  'MCAP: mixed pkg/msg/Type and pkg/Type names decode; a text lacking a section is refused by name',
  async (t) => {
    const path = join(t.testdir(), 'third-party.mcap');
    const { gate, profile } = makeGate();
    const elbow = profile.joints[2]!;
    const w = await openRawMcap(path);
    const channel = async (topic: string, name: string, text: string) =>
      w.registerChannel({
        topic,
        schemaId: await w.registerSchema({ name, encoding: 'ros2msg', data: new TextEncoder().encode(text) }),
        messageEncoding: 'cdr',
        metadata: new Map(),
      });
    const joints = await channel(TOPICS.joints, 'sensor_msgs/msg/JointState', JOINT_STATE_LONG_SECTIONS);
    const front = await channel(TOPICS.front, 'sensor_msgs/LaserScan', LASER_SCAN_LONG_FIELDS);
    const rear = await channel(TOPICS.rear, 'sensor_msgs/msg/LaserScan', LASER_SCAN_INCOMPLETE);
    // The bytes are written with the standard definitions: the same layout under either spelling.
    const jointWriter = new MessageWriter(
      parseMsgDefinition(ros2msgSchema(ROS_TYPES.jointState)!, { ros2: true }),
    );
    const scanWriter = new MessageWriter(
      parseMsgDefinition(ros2msgSchema(ROS_TYPES.laserScan)!, { ros2: true }),
    );
    for (let dt = 0; dt <= 200; dt += 20) {
      const at = T0 + dt;
      const add = (channelId: number, data: Uint8Array) =>
        w.addMessage({ channelId, sequence: 0, logTime: BigInt(at) * 1_000_000n, publishTime: 0n, data });
      const effort = [10, 40, dt === 100 ? elbow.torqueLimitNm + 12.5 : 20, 2, 1, 0.5];
      await add(joints, jointWriter.writeMessage(jointStateMsg(profile, at, effort)));
      await add(front, scanWriter.writeMessage(scanMsg(at, null)));
      await add(rear, scanWriter.writeMessage(scanMsg(at, null)));
    }
    await w.finish();

    const s = await replayRecording({ bagPath: path, profile, gate });
    t.equal(s.error, undefined);
    t.equal(s.telemetry.accepted, 22, 'every joint state and front scan decoded and taken');
    t.match(s.measured.breaches, [
      { atMs: T0 + 100, check: 'effort', subject: elbow.name, value: elbow.torqueLimitNm + 12.5 },
    ]);
    t.same(Object.keys(s.skipped.byReason), ['bad-schema']);
    t.equal(s.skipped.byReason['bad-schema'], 11);
    t.match(
      s.skipped.examples['bad-schema'],
      /^\/proximity_rear: schema sensor_msgs\/msg\/LaserScan does not parse: the definition text lacks std_msgs\/Header \(no `MSG: std_msgs\/Header` section\): it is incomplete$/,
    );
  },
);

t.test('sqlite3 schema 4: message_definitions with mixed names decode', async (t) => {
  const path = join(t.testdir(), 'third-party.db3');
  const { gate, profile } = makeGate();
  const w = new Db3Writer(path, { schemaVersion: 4 });
  await w.rosChannel(TOPICS.joints, ROS_TYPES.jointState, 'cdr', JOINT_STATE_LONG_SECTIONS);
  await w.rosChannel(TOPICS.front, ROS_TYPES.laserScan, 'cdr', LASER_SCAN_LONG_FIELDS);
  for (let dt = 0; dt <= 100; dt += 20) {
    await w.write(TOPICS.joints, jointStateMsg(profile, T0 + dt), T0 + dt);
    await w.write(TOPICS.front, scanMsg(T0 + dt, 0.4), T0 + dt);
  }
  await w.finish();
  const s = await replayRecording({ bagPath: path, profile, gate });
  t.equal(s.error, undefined);
  t.equal(s.skipped.total, 0, JSON.stringify(s.skipped.examples));
  t.equal(s.telemetry.accepted, 12);
  t.match(s.measured.breaches, [{ check: 'proximity', value: Number(Math.fround(0.4)) }]);
});
