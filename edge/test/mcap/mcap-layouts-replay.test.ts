/**
 * The MCAP layouts writers other than rosbag2 produce (MCAP spec: chunks, message indexes and the summary section
 * are all optional) replay exactly like rosbag2's chunked, indexed file: the same messages, verdicts and commands.
 * A file whose footer is missing (a recorder killed before closing it) replays everything in it, then ends with
 * an error naming the missing footer.
 */
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MessageWriter } from '@foxglove/rosmsg2-serialization';
import { parse } from '@foxglove/rosmsg';
import { McapWriter, type McapWriterOptions } from '@mcap/core';
import t from 'tap';
import { McapFileSink } from '../../src/mcap/mcap-file-sink.js';
import { replayRecording } from '../../src/mcap/replay.js';
import { ros2msgSchema } from '../../src/ros/ros-message-definitions.js';
import { T0, armIntent, makeGate } from '../trap/fixtures.js';
import {
  type SceneWriter,
  registerSceneTopics,
  writeCellRecording,
} from '../transports/helpers/recordings.js';

/** No summary section, statistics or indexes of any kind: only the data section. */
const DATA_ONLY: Omit<McapWriterOptions, 'writable'> = {
  useStatistics: false,
  useSummaryOffsets: false,
  useChunkIndex: false,
  useMessageIndex: false,
  useMetadataIndex: false,
  useAttachmentIndex: false,
  repeatSchemas: false,
  repeatChannels: false,
};

/** A scene writer on a plain McapWriter with `options`, CDR messages with the bundled definitions. */
function mcapWriterWith(options: Omit<McapWriterOptions, 'writable'>) {
  return async (path: string): Promise<SceneWriter> => {
    const sink = await McapFileSink.create(path);
    const w = new McapWriter({ writable: sink, ...options });
    await w.start({ profile: 'ros2', library: 'third-party-writer' });
    const channels = new Map<string, { id: number; cdr: MessageWriter }>();
    return {
      async rosChannel(topic, type) {
        const text = ros2msgSchema(type)!;
        const schemaId = await w.registerSchema({
          name: type,
          encoding: 'ros2msg',
          data: new TextEncoder().encode(text),
        });
        const id = await w.registerChannel({ topic, schemaId, messageEncoding: 'cdr', metadata: new Map() });
        channels.set(topic, { id, cdr: new MessageWriter(parse(text, { ros2: true })) });
      },
      async write(topic, message, ms) {
        const c = channels.get(topic)!;
        const ns = BigInt(ms) * 1_000_000n;
        await w.addMessage({
          channelId: c.id,
          sequence: 0,
          logTime: ns,
          publishTime: ns,
          data: c.cdr.writeMessage(message),
        });
      },
      async finish() {
        await w.end();
        await sink.close();
      },
    };
  };
}

const SCENE = {
  intents: [
    [100, armIntent()],
    [700, armIntent()],
  ] as [number, ReturnType<typeof armIntent>][],
  frontHumanM: [[400, 0.3]] as [number, number | null][],
};

async function replayScene(path: string, openWriter?: (path: string) => Promise<SceneWriter>) {
  const { gate, profile } = makeGate();
  const writer = openWriter
    ? async (p: string) => {
        const w = await openWriter(p);
        await registerSceneTopics(w);
        return w;
      }
    : undefined;
  await writeCellRecording(path, profile, T0, 1000, SCENE, writer);
  return (cut = 0) => cutAndReplay(path, cut, profile, gate);
}

async function cutAndReplay(
  path: string,
  cutBytes: number,
  profile: ReturnType<typeof makeGate>['profile'],
  gate: ReturnType<typeof makeGate>['gate'],
) {
  if (cutBytes > 0) {
    const fh = await open(path, 'r+');
    await fh.truncate((await stat(path)).size - cutBytes);
    await fh.close();
  }
  return replayRecording({ bagPath: path, profile, gate });
}

t.test('unchunked, unindexed and summary-less MCAP replay as rosbag2 chunked MCAP does', async (t) => {
  const dir = t.testdir();
  const reference = await (await replayScene(join(dir, 'rosbag2.mcap')))();
  t.equal(reference.error, undefined);
  t.same(reference.verdicts.byOutcome, { signed: 1, stopped: 1, vetoed: 1 });
  for (const [name, options] of [
    ['unchunked', { useChunks: false }],
    ['chunked-data-only', { useChunks: true, ...DATA_ONLY }],
    ['unchunked-data-only', { useChunks: false, ...DATA_ONLY }],
  ] as const) {
    const s = await (await replayScene(join(dir, `${name}.mcap`), mcapWriterWith(options)))();
    t.equal(s.error, undefined, name);
    t.equal(s.messages.total, reference.messages.total, `${name}: every message`);
    t.same(s.skipped.byReason, {}, name);
    t.same(s.verdicts, reference.verdicts, `${name}: the same verdicts`);
    t.same(s.commands, reference.commands, `${name}: the same commands`);
    t.same(s.firstVeto, reference.firstVeto, name);
  }
});

t.test(
  'a summary-less file without its footer replays everything, then names the missing footer',
  async (t) => {
    const path = join(t.testdir(), 'killed.mcap');
    const replay = await replayScene(path, mcapWriterWith({ useChunks: false, ...DATA_ONLY }));
    // Footer record (opcode, length, three fields: 1 + 8 + 20 bytes) and the closing magic (8 bytes).
    const s = await replay(29 + 8);
    t.match(s.error, /killed\.mcap: truncated .*footer is missing/);
    t.equal(s.messages.total, 51 * 3 + 11 + 3 + 2, 'every message before the cut');
    t.same(s.commands, { motion: 1, stop: 1 }, 'the move, and the STOP when the person came');
    t.equal(s.verdicts.byOutcome.vetoed, 1);
  },
);
