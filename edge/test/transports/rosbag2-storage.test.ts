/**
 * The recordings users have: rosbag2's own test recordings (sqlite3 schema 4 with definitions, the old two-table
 * schema in WAL mode, a split MCAP bag without metadata.yaml, zstd chunks; /work/shared/vectors/rosbag2), and
 * recordings of a robot cell written here with real writers — sqlite3 in rosbag2's exact table layout (schema 3,
 * Humble, no message_definitions; schema 4 with them) and MCAP with lz4 chunks — replayed through the gates;
 * truncated and corrupt ones fail with a clear error and never yield a signature.
 */
import { copyFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McapStreamReader } from '@mcap/core';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { readRecording } from '../../src/mcap/recording-reader.js';
import { replayRecording } from '../../src/mcap/replay.js';
import type { RecordedItem } from '../../src/mcap/rosbag-reader.js';
import { T0, armIntent, makeGate } from '../trap/fixtures.js';
import { Db3Writer } from './helpers/db3-writer.js';
import { lz4Chunks, openBag, registerSceneTopics, writeCellRecording } from './helpers/recordings.js';

const VECTORS = join(dirname(fileURLToPath(import.meta.url)), '../../../../shared/vectors/rosbag2');

async function all(path: string): Promise<RecordedItem[]> {
  const out: RecordedItem[] = [];
  for await (const item of readRecording(path)) out.push(item);
  return out;
}

const scene = {
  intents: [[100, armIntent()]] as [number, ReturnType<typeof armIntent>][],
  frontHumanM: [[400, 0.3]] as [number, number][],
};

async function replayScene(path: string) {
  const { gate, profile } = makeGate();
  return replayRecording({ bagPath: path, profile, gate });
}

function expectScene(t: Test, s: Awaited<ReturnType<typeof replayScene>>) {
  t.equal(s.error, undefined);
  t.equal(s.skipped.total, 0, JSON.stringify(s.skipped.examples));
  t.equal(s.verdicts.byOutcome.signed, 1, 'the move is signed');
  t.match(
    s.firstVeto,
    { outcome: 'stopped', offsetMs: 400, violation: /^RISK\./ },
    'and stopped by the person',
  );
}

t.test(
  'rosbag2 sqlite3, schema 4 with message_definitions (rosbag2 cdr_test): every message decoded',
  async (t) => {
    const items = await all(join(VECTORS, 'rosbag2_tests/resources/sqlite3/cdr_test'));
    t.equal(items.length, 7);
    t.ok(
      items.every((i) => i.kind === 'message'),
      "decoded from the bag's own definitions (test_msgs is not bundled)",
    );
    t.equal(items[0]?.logTimeNs, 1586406456763032325n, 'nanosecond timestamps kept exactly');
    const basic = items.find((i) => i.topic === '/test_topic');
    t.match(basic, { type: 'test_msgs/msg/BasicTypes', message: { bool_value: Boolean } });
    const times = items.map((i) => i.logTimeNs);
    t.same(
      times,
      [...times].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      'in timestamp order',
    );
  },
);

t.test(
  'rosbag2 sqlite3, the old two-table schema in WAL mode: clear skips, the bag directory untouched',
  async (t) => {
    const dir = join(VECTORS, 'rosbag2_tests/resources/sqlite3/wrong_rmw_test');
    const before = (await readdir(dir)).sort();
    const items = await all(dir);
    t.equal(items.length, 7);
    t.ok(items.every((i) => i.kind === 'problem' && i.reason === 'missing-schema'));
    t.match(items[0], {
      kind: 'problem',
      detail: /no definition of test_msgs\/msg\/\w+ .*no standard definition is bundled/,
    });
    t.same((await readdir(dir)).sort(), before, 'no -wal/-shm files created beside the bag');
  },
);

t.test('rosbag2 sqlite3 talker: std_msgs/String decoded', async (t) => {
  const items = await all(join(VECTORS, 'rosbag2_py/test/resources/sqlite3/talker'));
  const chatter = items.filter((i) => i.topic === '/topic');
  t.equal(chatter.length, 10);
  t.match(chatter[0], { kind: 'message', message: { data: 'Hello, world! 0' } });
});

t.test('a split MCAP bag without metadata.yaml (zstd chunks) reads as one recording, in order', async (t) => {
  const items = await all(join(VECTORS, 'rosbag2_py/test/resources/mcap/reindex_test_bags/multiple_files'));
  t.equal(items.length, 1324 + 1324 + 529, 'all three files');
  t.ok(items.every((i) => i.kind === 'message' && i.type === 'std_msgs/msg/String'));
  let backwards = 0;
  for (let i = 1; i < items.length; i++) if (items[i]!.logTimeNs < items[i - 1]!.logTimeNs) backwards += 1;
  t.equal(backwards, 0, 'files read in split order');
  const talker = await all(join(VECTORS, 'rosbag2_py/test/resources/mcap/talker'));
  t.equal(
    talker.filter((i) => i.kind === 'message' && i.topic === '/topic').length,
    10,
    'bag directory with metadata.yaml',
  );
});

for (const [label, options] of [
  ['schema 3 (Humble), no message_definitions: standard definitions bundled', { schemaVersion: 3 as const }],
  ['schema 4 with message_definitions', { schemaVersion: 4 as const }],
] as const) {
  t.test(`a robot cell in sqlite3 ${label}: replayed through the gates`, async (t) => {
    const dir = t.testdir();
    const db3 = join(dir, 'cell_0.db3');
    const { profile } = makeGate();
    await writeCellRecording(db3, profile, T0, 800, scene, async (p) => {
      const w = new Db3Writer(p, options);
      await registerSceneTopics(w);
      return w;
    });
    expectScene(t, await replayScene(db3));
    await writeFile(
      join(dir, 'metadata.yaml'),
      'rosbag2_bagfile_information:\n  version: 5\n  storage_identifier: sqlite3\n  relative_file_paths:\n    - cell_0.db3\n',
    );
    expectScene(t, await replayScene(dir));
  });
}

t.test('MCAP with lz4 chunks (LZ4 frames): replayed through the gates', async (t) => {
  const dir = t.testdir();
  const path = join(dir, 'cell.mcap');
  const { profile } = makeGate();
  await writeCellRecording(path, profile, T0, 800, scene, (p) => openBag(p, lz4Chunks));
  const seen: string[] = [];
  const reader = new McapStreamReader({
    decompressHandlers: {
      lz4: (_b, size) => {
        seen.push('lz4');
        return new Uint8Array(Number(size));
      },
    },
    validateCrcs: false,
  });
  reader.append(await readFile(path));
  while (reader.nextRecord());
  t.ok(seen.length > 0, 'the file has lz4 chunks');
  expectScene(t, await replayScene(path));
});

t.test('truncated and corrupt sqlite3 bags: a clear error, no signature', async (t) => {
  const dir = t.testdir();
  const db3 = join(dir, 'cell.db3');
  const { profile } = makeGate();
  await writeCellRecording(db3, profile, T0, 800, scene, async (p) => {
    const w = new Db3Writer(p);
    await registerSceneTopics(w);
    return w;
  });
  const bytes = await readFile(db3);
  const cut = join(dir, 'cut.db3');
  await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
  const c = await replayScene(cut);
  t.match(c.error, /cut\.db3/);
  t.match(c.error, /truncated or corrupt|rosbag2 tables/, 'says what is wrong with it');
  t.equal(c.commands.motion, 0);
  const junk = Buffer.from(bytes);
  for (let i = 4096; i < junk.length; i += 97) junk[i] = 0xa5;
  const bad = join(dir, 'bad.db3');
  await writeFile(bad, junk);
  const b = await replayScene(bad);
  t.ok(
    b.error !== undefined || (b.skipped.byReason['decode-failed'] ?? 0) > 0,
    b.error ?? JSON.stringify(b.skipped),
  );
  t.equal(b.verdicts.byOutcome.signed ?? 0, 0, 'nothing is signed from a corrupt bag');
});

t.test(
  'a bag that holds fewer messages than its metadata.yaml records is not a complete replay',
  async (t) => {
    const source = join(VECTORS, 'rosbag2_py/test/resources/sqlite3/talker');
    const whole = await replayScene(source);
    t.equal(whole.error, undefined, 'the bag as recorded: 20 of 20 messages');
    t.equal(whole.messages.total, 20);
    const dir = t.testdir();
    for (const f of await readdir(source)) await writeFile(join(dir, f), await readFile(join(source, f)));
    // rows gone from a readable database: what a .db3 copied without its -wal file, or edited, looks like
    const db = new Database(join(dir, 'talker.db3'));
    const removed = db.prepare('DELETE FROM messages WHERE id % 2 = 0').run().changes;
    db.close();
    t.ok(removed > 0, `${removed} rows removed`);
    const short = await replayScene(dir);
    t.equal(short.messages.total, 20 - removed, 'the rest is read and summarised');
    t.match(
      short.error,
      /metadata\.yaml records 20 messages, \d+ were read \(/,
      'named as an error (exit 2)',
    );
    t.match(short.error, /\/topic \d+ of 10/, 'with the topics that are short');
  },
);

t.test("a profile's intent topic none of whose messages decode is said to feed nothing", async (t) => {
  const dir = t.testdir();
  const db3 = join(dir, 'wrong.db3');
  copyFileSync(join(VECTORS, 'rosbag2_py/test/resources/sqlite3/talker/talker.db3'), db3);
  const { gate, profile } = makeGate();
  const intentTopic = profile.topics?.ros2?.intent?.name;
  t.ok(intentTopic, 'the fixture profile names an intent topic');
  const db = new Database(db3);
  // the talker's std_msgs/String messages, filed under the profile's intent topic as another type
  db.prepare("UPDATE topics SET name = ?, type = 'geometry_msgs/msg/Twist' WHERE name = '/topic'").run(
    intentTopic,
  );
  db.close();
  const s = await replayRecording({ bagPath: db3, profile, gate });
  t.equal(s.intents, 0);
  t.ok((s.skipped.byReason['decode-failed'] ?? 0) > 0, 'its messages failed to decode');
  const line = s.messages.byTopic.find((c) => c.topic === intentTopic);
  t.match(line?.boundTo, /^nothing: none of its \d+ messages decoded/, 'not listed as feeding intents');
  t.ok(
    s.warnings.some((w) => w.startsWith(`${intentTopic} [geometry_msgs/msg/Twist]: none of its`)),
    s.warnings.join('\n'),
  );
});
