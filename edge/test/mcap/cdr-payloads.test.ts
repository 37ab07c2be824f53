/**
 * How recorded payloads reach the gates:
 *   - rosbag2's per-message compression (`ros2 bag record --compression-mode message --compression-format zstd`)
 *     stores each message as one zstd frame (compressed here with the `zstd` command-line tool, as rosbag2's
 *     ZSTD_compress writes them): decompressed and judged, in MCAP and in sqlite3, in a bag directory whose
 *     metadata.yaml says so;
 *   - big-endian CDR (CDR_BE, encapsulation 0x0000) decodes to the same values as little-endian;
 *   - XCDR2 (PLAIN_CDR2, DELIMITED_CDR2) and parameter lists are refused by name (unsupported-encapsulation),
 *     never decoded as XCDR1: the joint source is then missing, so the intent is vetoed and nothing is signed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CdrWriter, EncapsulationKind } from '@foxglove/cdr';
import { MessageWriter } from '@foxglove/rosmsg2-serialization';
import { parse as parseMsgDefinition } from '@foxglove/rosmsg';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { renderReplaySummary } from '../../src/mcap/replay-summary.js';
import { ros2msgSchema } from '../../src/ros/ros-message-definitions.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, armIntent, makeGate } from '../trap/fixtures.js';
import { Db3Writer } from '../transports/helpers/db3-writer.js';
import {
  TOPICS,
  batteryMsg,
  firmwareMsg,
  jointStateMsg,
  openRawMcap,
  scanMsg,
  trajectoryMsg,
} from '../transports/helpers/recordings.js';

/** One zstd frame with its content size, as rosbag2_compression_zstd writes each message. */
function zstd(data: Uint8Array): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'pentagate-zstd-'));
  try {
    const file = join(dir, 'msg');
    writeFileSync(file, data);
    return new Uint8Array(execFileSync('zstd', ['-q', '-c', '-3', file]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const writerFor = (type: string) =>
  new MessageWriter(parseMsgDefinition(ros2msgSchema(type)!, { ros2: true }));

type JointStateMsg = ReturnType<typeof jointStateMsg>;

/** sensor_msgs/JointState by hand, in any encapsulation CdrWriter writes (it aligns 8-byte values to 4 in XCDR2). */
function jointStateCdr(kind: EncapsulationKind, m: JointStateMsg): Uint8Array {
  const w = new CdrWriter({ kind });
  w.int32(m.header.stamp.sec).uint32(m.header.stamp.nanosec).string(m.header.frame_id);
  w.sequenceLength(m.name.length);
  for (const n of m.name) w.string(n);
  w.float64Array(m.position, true).float64Array(m.velocity, true).float64Array(m.effort, true);
  return w.data;
}

/** A raw MCAP arm cell: every payload made by `joints` (joint states) and the writers' own encodings otherwise. */
async function writeCell(
  path: string,
  joints: (m: JointStateMsg) => Uint8Array,
  other: (data: Uint8Array) => Uint8Array = (d) => d,
  withIntent = false,
) {
  const { profile } = makeGate();
  const w = await openRawMcap(path);
  const ids = new Map<string, number>();
  for (const [topic, type] of [
    [TOPICS.joints, ROS_TYPES.jointState],
    [TOPICS.front, ROS_TYPES.laserScan],
    [TOPICS.rear, ROS_TYPES.laserScan],
    [TOPICS.battery, ROS_TYPES.battery],
    [TOPICS.firmware, ROS_TYPES.string],
    [TOPICS.intent, ROS_TYPES.jointTrajectory],
  ] as const) {
    const schemaId = await w.registerSchema({
      name: type,
      encoding: 'ros2msg',
      data: new TextEncoder().encode(ros2msgSchema(type)),
    });
    ids.set(topic, await w.registerChannel({ topic, schemaId, messageEncoding: 'cdr', metadata: new Map() }));
  }
  const add = (topic: string, data: Uint8Array, ms: number) =>
    w.addMessage({
      channelId: ids.get(topic)!,
      sequence: 0,
      logTime: BigInt(ms) * 1_000_000n,
      publishTime: BigInt(ms) * 1_000_000n,
      data,
    });
  const scan = writerFor(ROS_TYPES.laserScan);
  const battery = writerFor(ROS_TYPES.battery);
  const string = writerFor(ROS_TYPES.string);
  const elbow = profile.joints[2]!;
  for (let dt = 0; dt <= 300; dt += 20) {
    const at = T0 + dt;
    const effort = [10, 40, dt === 100 ? elbow.torqueLimitNm + 7.25 : 20, 2, 1, 0.5];
    await add(TOPICS.joints, joints(jointStateMsg(profile, at, effort)), at);
    await add(TOPICS.front, other(scan.writeMessage(scanMsg(at, null))), at);
    await add(TOPICS.rear, other(scan.writeMessage(scanMsg(at, null))), at);
    if (dt % 100 === 0) await add(TOPICS.battery, other(battery.writeMessage(batteryMsg(at))), at);
    if (dt === 0) await add(TOPICS.firmware, other(string.writeMessage(firmwareMsg())), at);
    if (withIntent && dt === 200) {
      await add(
        TOPICS.intent,
        other(writerFor(ROS_TYPES.jointTrajectory).writeMessage(trajectoryMsg(armIntent(), at))),
        at + 1,
      );
    }
  }
  await w.finish();
  return elbow;
}

t.test(
  'MCAP with zstd-compressed messages (compression_mode message): decompressed and judged',
  async (t) => {
    const dir = t.testdir({ bag: {} });
    const joint = writerFor(ROS_TYPES.jointState);
    const elbow = await writeCell(join(dir, 'bag', 'bag_0.mcap'), (m) => zstd(joint.writeMessage(m)), zstd);
    await writeFile(
      join(dir, 'bag', 'metadata.yaml'),
      [
        'rosbag2_bagfile_information:',
        '  version: 9',
        '  storage_identifier: mcap',
        '  relative_file_paths:',
        '    - bag_0.mcap',
        '  compression_format: zstd',
        '  compression_mode: MESSAGE',
        '',
      ].join('\n'),
    );
    for (const bagPath of [join(dir, 'bag'), join(dir, 'bag', 'bag_0.mcap')]) {
      const s = await replayRecording({ bagPath, ...makeGate() });
      t.equal(s.error, undefined);
      t.equal(s.skipped.total, 0, JSON.stringify(s.skipped.examples));
      t.equal(s.telemetry.accepted, 16 * 3 + 4 + 1);
      t.match(s.measured.breaches, [
        { check: 'effort', subject: elbow.name, value: elbow.torqueLimitNm + 7.25 },
      ]);
    }
  },
);

t.test('sqlite3 with zstd-compressed messages (Humble: sqlite3 + compression_mode message)', async (t) => {
  const path = join(t.testdir(), 'bag_0.db3');
  const { gate, profile } = makeGate();
  const w = new Db3Writer(path);
  await w.rosChannel(TOPICS.joints, ROS_TYPES.jointState);
  await w.rosChannel(TOPICS.front, ROS_TYPES.laserScan);
  for (let dt = 0; dt <= 100; dt += 20) {
    w.writeRaw(TOPICS.joints, zstd(w.encode(TOPICS.joints, jointStateMsg(profile, T0 + dt))), T0 + dt);
    w.writeRaw(TOPICS.front, zstd(w.encode(TOPICS.front, scanMsg(T0 + dt, 0.25))), T0 + dt);
  }
  // a damaged frame: the zstd magic, then garbage
  w.writeRaw(TOPICS.joints, new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x05, 1, 2, 3]), T0 + 120);
  await w.finish();
  const s = await replayRecording({ bagPath: path, profile, gate });
  t.equal(s.error, undefined);
  t.equal(s.telemetry.accepted, 12);
  t.match(s.measured.breaches, [{ check: 'proximity', value: Math.fround(0.25) }]);
  t.same(s.skipped.byReason, { 'decode-failed': 1 });
  t.match(
    s.skipped.examples['decode-failed'],
    /^\/joint_states: sensor_msgs\/msg\/JointState message of 9 bytes is a zstd frame \(rosbag2 compression_mode message\) that does not decompress/,
  );
});

t.test('big-endian CDR decodes to the values written', async (t) => {
  const path = join(t.testdir(), 'be.mcap');
  const elbow = await writeCell(path, (m) => jointStateCdr(EncapsulationKind.CDR_BE, m));
  const s = await replayRecording({ bagPath: path, ...makeGate() });
  t.equal(s.skipped.total, 0, JSON.stringify(s.skipped.examples));
  t.match(s.measured.breaches, [{ check: 'effort', subject: elbow.name, value: elbow.torqueLimitNm + 7.25 }]);
  t.equal(s.measured.breaches.length, 1, 'no other value misread');
});

for (const [kind, name] of [
  [EncapsulationKind.RTPS_CDR2_LE, /0x0007 \(XCDR2 PLAIN_CDR2 little-endian\)/],
  [EncapsulationKind.RTPS_DELIMITED_CDR2_BE, /0x0008 \(XCDR2 DELIMITED_CDR2 big-endian\)/],
  [EncapsulationKind.PL_CDR_LE, /0x0003 \(PL_CDR little-endian \(XCDR1 parameter list\)\)/],
] as const) {
  t.test(`joint states in ${EncapsulationKind[kind]}: refused by name, the intent is vetoed`, async (t) => {
    const path = join(t.testdir(), 'xcdr2.mcap');
    await writeCell(path, (m) => jointStateCdr(kind, m), undefined, true);
    const s = await replayRecording({ bagPath: path, ...makeGate() });
    t.equal(s.error, undefined);
    t.same(s.skipped.byReason, { 'unsupported-encapsulation': 16 });
    t.match(
      s.skipped.examples['unsupported-encapsulation'],
      /^\/joint_states: sensor_msgs\/msg\/JointState message has encapsulation /,
    );
    t.match(s.skipped.examples['unsupported-encapsulation'], name);
    t.match(s.skipped.examples['unsupported-encapsulation'], /only classic CDR \(XCDR1.*\) is read/);
    t.equal(s.intents, 1);
    t.equal(s.commands.motion, 0, 'nothing signed without joint states');
    t.match(s.firstVeto, { outcome: 'vetoed', violation: /^INVARIANT\.MISSING_DATA/ });
    t.equal(s.measured.breaches.length, 0);
    t.match(s.measured.sourcesWithoutFrames, [
      {
        source: 'joint_states',
        checks: ['effort', 'position-limit', 'keep-out'],
        why: 'no frame from /joint_states was taken (see skipped and telemetry rejected)',
      },
    ]);
    t.match(
      renderReplaySummary(s),
      /\n {4}no data: joint_states gave no frame, so effort, position-limit, keep-out not checked \(no frame from \/joint_states was taken/,
      '"0 breaches" is not left to stand alone',
    );
  });
}

t.test('a bag directory with message compression and a missing file: the error names it', async (t) => {
  const dir = t.testdir({ bag: {} });
  await mkdir(join(dir, 'bag'), { recursive: true });
  await writeCell(join(dir, 'bag', 'bag_0.mcap'), (m) => writerFor(ROS_TYPES.jointState).writeMessage(m));
  await writeFile(
    join(dir, 'bag', 'metadata.yaml'),
    'rosbag2_bagfile_information:\n  version: 9\n  storage_identifier: mcap\n  relative_file_paths:\n    - bag_0.mcap\n    - bag_1.mcap\n',
  );
  const s = await replayRecording({ bagPath: join(dir, 'bag'), ...makeGate() });
  t.equal(s.telemetry.accepted, 16 * 3 + 4 + 1, 'the file that is there is replayed');
  t.match(s.error, /bag_1\.mcap: cannot open it \(ENOENT\)/);
});
