/**
 * A rosbag2 `.db3` left in WAL mode: rosbag2's `resilient` storage preset sets `PRAGMA journal_mode=WAL`
 * (rosbag2_storage_sqlite3, sqlite_storage.cpp), so a recording that was interrupted before its last checkpoint
 * leaves `x_0.db3`, `x_0.db3-wal` and `x_0.db3-shm`, with committed messages still only in the `-wal`. The
 * recording is written here by a connection that never checkpoints and copied while it is still open.
 */
import { copyFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { T0, armIntent, makeGate } from '../trap/fixtures.js';
import { Db3Writer } from '../transports/helpers/db3-writer.js';
import { registerSceneTopics, writeCellRecording } from '../transports/helpers/recordings.js';

t.test('a .db3 in WAL mode with its messages still in the -wal: every message is replayed', async (t) => {
  const work = t.testdir({ bag: {} });
  const live = join(work, 'live_0.db3');
  const bag = join(work, 'bag');
  const { gate, profile } = makeGate();
  await writeCellRecording(live, profile, T0, 800, { intents: [[100, armIntent()]] }, async (p) => {
    const w = new Db3Writer(p, { wal: true });
    await registerSceneTopics(w);
    return {
      rosChannel: (topic, type) => w.rosChannel(topic, type),
      write: (topic, message, at) => w.write(topic, message, at),
      finish: async () => {
        w.commit();
        // What the interrupted recorder leaves: the three files, copied before any checkpoint.
        for (const suffix of ['', '-wal', '-shm'])
          await copyFile(p + suffix, join(bag, `cell_0.db3${suffix}`));
        w.close();
      },
    };
  });
  t.ok((await stat(join(bag, 'cell_0.db3-wal'))).size > 0, 'the messages are in the -wal');
  const before = (await readdir(bag)).sort();

  const s = await replayRecording({ bagPath: bag, profile, gate });
  t.equal(s.error, undefined);
  t.equal(s.messages.total, 41 * 3 + 9 + 2 + 1, 'joints, two scans, battery, firmware and the intent');
  t.equal(s.verdicts.byOutcome.signed, 1, 'the intent recorded in the -wal is judged');
  t.same((await readdir(bag)).sort(), before, 'the bag directory is untouched');
});
