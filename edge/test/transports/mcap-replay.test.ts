import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { McapIndexedReader, TempBuffer } from '@mcap/core';
import { acceptMotorCommand } from '@pentagate/crypto';
import { conforms, MotorCommandSchema, VerdictEventSchema } from '@pentagate/protocol';
import t from 'tap';
import { McapFileSink } from '../../src/mcap/mcap-file-sink.js';
import { replayRecording } from '../../src/mcap/replay.js';
import { renderReplaySummary } from '../../src/mcap/replay-summary.js';
import { readRosbag } from '../../src/mcap/rosbag-reader.js';
import { RosbagWriter } from '../../src/mcap/rosbag-writer.js';
import { RECORDED_TOPICS, VerdictRecorder } from '../../src/mcap/verdict-recorder.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { ros2msgSchema } from '../../src/ros/ros-message-definitions.js';
import { T0, armIntent, hmacKey, makeGate } from '../trap/fixtures.js';
import {
  TOPICS,
  jointStateMsg,
  openBag,
  openRawMcap,
  registerSceneTopics,
  scanMsg,
  writeCellRecording,
} from './helpers/recordings.js';

const keys = new Map([[hmacKey.kid, hmacKey.key]]);

t.test('a human entering the radius during a signed move: replay signs, then STOPs and vetoes', async (t) => {
  const dir = t.testdir();
  const bag = join(dir, 'cell.mcap');
  const { gate, profile } = makeGate();
  await writeCellRecording(bag, profile, T0, 1000, {
    intents: [
      [100, armIntent({ intentId: 'ignored-by-ros' })],
      [700, armIntent()],
    ],
    frontHumanM: [[400, 0.3]],
  });
  const recordPath = join(dir, 'verdicts.mcap');
  const recorder = await VerdictRecorder.create(recordPath);
  const s = await replayRecording({ bagPath: bag, profile, gate, recorder });
  await recorder.close();
  t.equal(s.error, undefined);
  t.equal(s.messages.total, 51 * 3 + 11 + 3 + 2);
  t.match(
    s.messages.byTopic.find((x) => x.topic === TOPICS.joints),
    { type: ROS_TYPES.jointState, messages: 51, boundTo: 'telemetry:joint_states' },
  );
  t.match(
    s.messages.byTopic.find((x) => x.topic === TOPICS.front),
    { boundTo: 'telemetry:proximity-front' },
  );
  t.match(
    s.messages.byTopic.find((x) => x.topic === TOPICS.intent),
    { type: ROS_TYPES.jointTrajectory, messages: 2, boundTo: 'intent' },
  );
  t.equal(s.skipped.total, 0, JSON.stringify(s.skipped.examples));
  t.equal(s.intents, 2);
  t.equal(s.verdicts.byOutcome.signed, 1, 'the first move is signed');
  t.equal(s.commands.motion, 1);
  t.ok((s.verdicts.byOutcome.stopped ?? 0) >= 1, 'the human entering stops the move');
  t.ok(s.commands.stop >= 1);
  t.equal(s.verdicts.byOutcome.vetoed, 1, 'the second move is vetoed');
  t.match(
    s.firstVeto,
    { outcome: 'stopped', offsetMs: 400, violation: /^RISK\./ },
    'first veto at the moment the human is seen',
  );
  t.match(s.firstFailureByVertex.RISK, { offsetMs: 400 });
  t.ok(s.verdicts.byVertex.RISK.failed >= 2);
  t.equal(s.verdicts.byVertex.PROVENANCE.failed, 0);
  const text = renderReplaySummary(s);
  t.match(text, /first veto \+0\.400 s/);
  t.match(text, /RISK\s+passed 1, failed/);

  // The recording holds every verdict with its evidence and the signed commands, readable by an MCAP reader.
  const reader = await McapIndexedReader.Initialize({ readable: new TempBuffer(await readFile(recordPath)) });
  const byTopic = new Map<string, unknown[]>();
  for await (const m of reader.readMessages()) {
    const topic = reader.channelsById.get(m.channelId)!.topic;
    const list = byTopic.get(topic) ?? [];
    list.push(topic === RECORDED_TOPICS.diagnostics ? m.data : JSON.parse(new TextDecoder().decode(m.data)));
    byTopic.set(topic, list);
  }
  const verdicts = byTopic.get(RECORDED_TOPICS.verdict) ?? [];
  t.equal(verdicts.length, s.verdicts.total);
  t.ok(verdicts.every((v) => conforms(VerdictEventSchema, v)));
  const evidence = byTopic.get(RECORDED_TOPICS.evidence) as { frames: { source: string }[] }[];
  t.ok(
    evidence[0]!.frames.some((f) => f.source === 'proximity-front'),
    'evidence carries the frames the gate held',
  );
  t.equal(byTopic.get(RECORDED_TOPICS.diagnostics)?.length, s.verdicts.total);
  const commands = byTopic.get(RECORDED_TOPICS.command) as unknown[];
  t.equal(commands.length, s.commands.motion + s.commands.stop);
  let state = { robotId: profile.robotId, epoch: 0, lastSeq: 0 };
  for (const c of commands) {
    t.ok(conforms(MotorCommandSchema, c));
    const a = acceptMotorCommand(state, c, { keys, nowMs: (c as { issuedAt: number }).issuedAt });
    t.ok(a.accepted, 'every recorded command passes the controller acceptance function');
    if (a.accepted) state = a.state;
  }
  const schemaNames = [...reader.schemasById.values()].map((x) => `${x.encoding}:${x.name}`);
  t.ok(schemaNames.includes('jsonschema:pentagate.VerdictEvent'));
  t.ok(schemaNames.includes('ros2msg:diagnostic_msgs/msg/DiagnosticArray'));
});

t.test(
  'a broken scanner (all NaN) skips its scans; the stale source vetoes the move; nothing is signed',
  async (t) => {
    const bag = join(t.testdir(), 'nan.mcap');
    const { gate, profile } = makeGate();
    await writeCellRecording(bag, profile, T0, 400, {
      intents: [[300, armIntent()]],
      scansBrokenFromMs: 100,
    });
    const s = await replayRecording({ bagPath: bag, profile, gate });
    t.ok((s.skipped.byReason['no-valid-return'] ?? 0) >= 20);
    t.match(s.skipped.examples['no-valid-return'], /NaN or outside/);
    t.equal(s.commands.motion, 0);
    t.equal(s.verdicts.byOutcome.vetoed, 1);
    t.match(s.firstVeto?.violation, /^RISK\./);
  },
);

t.test('NaN effort in joint states is a counted skip, and the gate never sees it', async (t) => {
  const bag = join(t.testdir(), 'nan-effort.mcap');
  const { gate, profile } = makeGate();
  const w = await openBag(bag);
  await w.write(TOPICS.joints, jointStateMsg(profile, T0, [1, Number.NaN, 1, 1, 1, 1]), T0);
  await w.write(TOPICS.joints, jointStateMsg(profile, T0 + 20), T0 + 20);
  await w.finish();
  const s = await replayRecording({ bagPath: bag, profile, gate });
  t.same(s.skipped.byReason, { 'non-finite': 1 });
  t.equal(s.telemetry.accepted, 1);
});

t.test('a truncated recording: a clear error, and no signature from the cut-off part', async (t) => {
  const dir = t.testdir();
  const full = join(dir, 'full.mcap');
  const { profile } = makeGate();
  await writeCellRecording(full, profile, T0, 400, { intents: [[300, armIntent()]] });
  const bytes = await readFile(full);
  const cut = join(dir, 'cut.mcap');
  await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
  const s = await replayRecording({ bagPath: cut, profile, gate: makeGate().gate });
  t.match(s.error, /recording .*cut\.mcap: truncated after \d+ bytes/);
  t.equal(s.commands.motion, 0);
  t.equal(s.verdicts.byOutcome.signed, undefined);

  const flipped = Buffer.from(bytes);
  flipped[Math.floor(bytes.length * 0.3)]! ^= 0xff;
  const crc = join(dir, 'crc.mcap');
  await writeFile(crc, flipped);
  const c = await replayRecording({ bagPath: crc, profile, gate: makeGate().gate });
  t.match(c.error, /crc|CRC/);
  t.equal(c.commands.motion, 0, 'a corrupt chunk is refused whole: its intent is never signed');

  const junk = join(dir, 'junk.mcap');
  await writeFile(junk, 'this is not a recording\n');
  t.match((await replayRecording({ bagPath: junk, profile, gate: makeGate().gate })).error, /junk\.mcap/);
  const empty = join(dir, 'empty.mcap');
  await writeFile(empty, '');
  t.match((await replayRecording({ bagPath: empty, profile, gate: makeGate().gate })).error, /empty/);
  t.match(
    (await replayRecording({ bagPath: join(dir, 'missing.mcap'), profile, gate: makeGate().gate })).error,
    /ENOENT/,
  );
});

t.test(
  'unknown encodings, missing schemas, bundled definitions, wrong types and undecodable messages',
  async (t) => {
    const path = join(t.testdir(), 'odd.mcap');
    const { gate, profile } = makeGate();
    const w = await openRawMcap(path);
    const text = (type: string) => new TextEncoder().encode(ros2msgSchema(type)!);
    const { MessageWriter } = await import('@foxglove/rosmsg2-serialization');
    const { parse } = await import('@foxglove/rosmsg');
    const jointWriter = new MessageWriter(parse(ros2msgSchema(ROS_TYPES.jointState)!, { ros2: true }));
    const scanWriter = new MessageWriter(parse(ros2msgSchema(ROS_TYPES.laserScan)!, { ros2: true }));
    const add = async (channelId: number, data: Uint8Array, ms: number) =>
      w.addMessage({
        channelId,
        sequence: 0,
        logTime: BigInt(ms) * 1_000_000n,
        publishTime: BigInt(ms) * 1_000_000n,
        data,
      });

    const protobuf = await w.registerSchema({
      name: 'sensor_msgs/msg/JointState',
      encoding: 'protobuf',
      data: new Uint8Array([1]),
    });
    const chProto = await w.registerChannel({
      topic: '/joint_states_pb',
      schemaId: protobuf,
      messageEncoding: 'protobuf',
      metadata: new Map(),
    });
    const chNoSchema = await w.registerChannel({
      topic: '/joint_states',
      schemaId: 0,
      messageEncoding: 'cdr',
      metadata: new Map(),
    });
    const idl = await w.registerSchema({
      name: 'sensor_msgs/msg/JointState',
      encoding: 'ros2idl',
      data: new Uint8Array([1]),
    });
    const chIdl = await w.registerChannel({
      topic: '/joints_idl',
      schemaId: idl,
      messageEncoding: 'cdr',
      metadata: new Map(),
    });
    const empty = await w.registerSchema({
      name: 'sensor_msgs/msg/LaserScan',
      encoding: 'ros2msg',
      data: new Uint8Array(),
    });
    const chBundled = await w.registerChannel({
      topic: '/proximity_front',
      schemaId: empty,
      messageEncoding: 'cdr',
      metadata: new Map(),
    });
    const emptyUnknown = await w.registerSchema({
      name: 'acme_msgs/msg/Widget',
      encoding: 'ros2msg',
      data: new Uint8Array(),
    });
    const chUnknown = await w.registerChannel({
      topic: '/widget',
      schemaId: emptyUnknown,
      messageEncoding: 'cdr',
      metadata: new Map(),
    });
    const stringSchema = await w.registerSchema({
      name: ROS_TYPES.string,
      encoding: 'ros2msg',
      data: text(ROS_TYPES.string),
    });
    const chWrongType = await w.registerChannel({
      topic: '/battery',
      schemaId: stringSchema,
      messageEncoding: 'cdr',
      metadata: new Map(),
    });
    const fakeText = 'string header\nstring[] name\nstring position\n';
    const fakeJoint = await w.registerSchema({
      name: ROS_TYPES.jointState,
      encoding: 'ros2msg',
      data: new TextEncoder().encode(fakeText),
    });
    const chFake = await w.registerChannel({
      topic: '/joint_states_fake',
      schemaId: fakeJoint,
      messageEncoding: 'cdr',
      metadata: new Map(),
    });
    const jointSchema = await w.registerSchema({
      name: ROS_TYPES.jointState,
      encoding: 'ros2msg',
      data: text(ROS_TYPES.jointState),
    });
    const chShort = await w.registerChannel({
      topic: '/joint_states_short',
      schemaId: jointSchema,
      messageEncoding: 'cdr',
      metadata: new Map(),
    });
    const badSchema = await w.registerSchema({
      name: 'sensor_msgs/msg/Range',
      encoding: 'ros2msg',
      data: new TextEncoder().encode('float32[ range\n'),
    });
    const chBadSchema = await w.registerChannel({
      topic: '/proximity_rear',
      schemaId: badSchema,
      messageEncoding: 'cdr',
      metadata: new Map(),
    });

    const good = jointWriter.writeMessage(jointStateMsg(profile, T0));
    await add(chProto, new Uint8Array([1, 2, 3]), T0);
    await add(chNoSchema, good, T0);
    await add(chIdl, good, T0);
    await add(chBundled, scanWriter.writeMessage(scanMsg(T0, 2.5)), T0);
    await add(chUnknown, new Uint8Array([0, 1, 0, 0]), T0);
    await add(chWrongType, new Uint8Array([0, 1, 0, 0, 3, 0, 0, 0, 104, 105, 0]), T0);
    const fakeWriter = new MessageWriter(parse(fakeText, { ros2: true }));
    await add(chFake, fakeWriter.writeMessage({ header: 'now', name: ['a'], position: 'up' }), T0);
    await add(chShort, good.subarray(0, 12), T0);
    await add(chBadSchema, new Uint8Array([0, 1, 0, 0]), T0);
    await w.finish();

    const s = await replayRecording({ bagPath: path, profile, gate });
    t.equal(s.error, undefined);
    t.equal(s.messages.total, 9);
    t.equal(s.skipped.byReason['unknown-encoding'], 2, 'protobuf channel and ros2idl schema');
    t.match(
      s.skipped.examples['unknown-encoding'],
      /message encoding "protobuf" is not supported \(expected cdr\)/,
    );
    t.equal(s.skipped.byReason['missing-schema'], 1, 'no schema');
    t.match(s.skipped.examples['missing-schema'], /channel has no schema/);
    t.equal(
      s.skipped.byReason['unsupported-type'],
      1,
      'an empty schema of a type no gate reads: skipped by its type, not decoded',
    );
    t.match(
      s.skipped.examples['unsupported-type'],
      /^\/widget \[acme_msgs\/msg\/Widget\] skipped: no gate reads/,
    );
    t.equal(
      s.skipped.byReason['bad-schema'],
      2,
      'a Range schema that does not parse, and a JointState schema with other field types (not the standard type)',
    );
    t.match(
      JSON.stringify(s),
      /the recording's definition of sensor_msgs\/msg\/JointState is not the standard one/,
    );
    t.equal(s.skipped.byReason['decode-failed'], 1);
    t.match(
      s.skipped.examples['decode-failed'],
      /joint_states_short: sensor_msgs\/msg\/JointState message of 12 bytes does not decode/,
    );
    t.equal(
      s.skipped.byReason['unbound-topic'],
      1,
      'a String on the battery topic cannot feed a battery source',
    );
    t.match(s.skipped.examples['unbound-topic'], /carries battery frames/);
    t.equal(
      s.telemetry.accepted,
      1,
      'the scan whose schema record was empty decoded with the bundled LaserScan definition',
    );
    t.equal(s.commands.motion + s.commands.stop, 0);
  },
);

t.test(
  'log time that goes backwards beyond the reorder window is replayed at the latest time seen and counted',
  async (t) => {
    // Unchunked, so without an index: read as a stream (an indexed file is read in log-time order).
    const path = join(t.testdir(), 'backwards.mcap');
    const { gate, profile } = makeGate();
    const sink = await McapFileSink.create(path);
    const bag = await RosbagWriter.open({ writable: sink, useChunks: false });
    await registerSceneTopics(bag);
    const w = Object.assign(bag, {
      async finish() {
        await bag.end();
        await sink.close();
      },
    });
    await w.write(TOPICS.joints, jointStateMsg(profile, T0 + 40), T0 + 40);
    await w.write(TOPICS.joints, jointStateMsg(profile, T0 + 2041), T0 + 2040);
    await w.write(TOPICS.joints, jointStateMsg(profile, T0 + 2042), T0 + 20);
    await w.finish();
    const s = await replayRecording({ bagPath: path, profile, gate });
    t.equal(s.logTimeBackwards, 1);
    t.equal(s.logTimeReordered, 0);
    t.equal(s.lastMessageMs, T0 + 2040);
    t.match(renderReplaySummary(s), /log time went backwards once \(replayed/);
  },
);

t.test('readRosbag yields decoded messages with their log time', async (t) => {
  const path = join(t.testdir(), 'small.mcap');
  const { profile } = makeGate();
  const w = await openBag(path);
  await w.write(TOPICS.joints, jointStateMsg(profile, T0), T0);
  await w.finish();
  const items = [];
  for await (const item of readRosbag(path)) items.push(item);
  t.match(items, [
    { kind: 'message', topic: TOPICS.joints, type: ROS_TYPES.jointState, logTimeNs: BigInt(T0) * 1_000_000n },
  ]);
});

t.test('the verdict recorder refuses to overwrite a file and reports writes after close', async (t) => {
  const path = join(t.testdir(), 'v.mcap');
  const r = await VerdictRecorder.create(path);
  await r.close();
  await r.close();
  await t.rejects(VerdictRecorder.create(path), {
    code: 'MCAP_WRITE_FAILED',
    message: /cannot create recording .*EEXIST/,
  });
  const { gate } = makeGate();
  await t.rejects(r.command(gate.protectiveStop('x', T0)), { code: 'TRANSPORT_CLOSED' });
});
