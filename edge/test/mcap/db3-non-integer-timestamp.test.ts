/**
 * A `.db3` whose messages.timestamp holds a REAL (a third-party writer; SQLite's column affinity keeps it) has no
 * log time to replay at: the replay ends with an error naming the file and the row, not a raw BigInt TypeError.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { T0, makeGate } from '../trap/fixtures.js';
import { Db3Writer } from '../transports/helpers/db3-writer.js';
import { registerSceneTopics, writeCellRecording } from '../transports/helpers/recordings.js';

t.test('a non-integer db3 timestamp is a clear error naming the file and the row', async (t) => {
  const path = join(t.testdir(), 'cell_0.db3');
  const { gate, profile } = makeGate();
  await writeCellRecording(path, profile, T0, 200, {}, async (p) => {
    const w = new Db3Writer(p);
    await registerSceneTopics(w);
    return w;
  });
  const db = new Database(path);
  // seconds as a REAL, as a writer that took the log time for seconds would store it
  db.prepare('UPDATE messages SET timestamp = ? WHERE id = 3').run(T0 / 1000 + 0.025);
  db.close();
  const s = await replayRecording({ bagPath: path, profile, gate });
  t.match(
    s.error,
    /^recording .*cell_0\.db3: messages row id 3: timestamp 1750000000\.025 is not an integer of nanoseconds/,
  );
  t.notMatch(s.error, /BigInt/);
});
