/**
 * A bag in which every message is there twice (merged from two recorders of the same topics, in MCAP and in
 * sqlite3): each copy is counted once (duplicate-message), so one trajectory is one intent and one signed
 * command, not two, and the rest of the replay is the same as the bag's without copies.
 */
import { join } from 'node:path';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { renderReplaySummary } from '../../src/mcap/replay-summary.js';
import { T0, armIntent, makeGate } from '../trap/fixtures.js';
import { Db3Writer } from '../transports/helpers/db3-writer.js';
import {
  type SceneWriter,
  openBag,
  registerSceneTopics,
  writeCellRecording,
} from '../transports/helpers/recordings.js';

const writers: Record<string, (path: string) => Promise<SceneWriter>> = {
  mcap: (path) => openBag(path),
  sqlite3: async (path) => {
    const db = new Db3Writer(path, { schemaVersion: 4 });
    await registerSceneTopics(db);
    return db;
  },
};

for (const [storage, open] of Object.entries(writers)) {
  t.test(
    `${storage}: every message twice (a merged bag): each counted once, one intent, one signature`,
    async (t) => {
      const dir = t.testdir();
      const ext = storage === 'mcap' ? 'mcap' : 'db3';
      const { profile } = makeGate();
      const scene = {
        intents: [[100, armIntent()]] as [number, ReturnType<typeof armIntent>][],
        frontHumanM: [[400, 0.3]] as [number, number][],
      };
      await writeCellRecording(join(dir, `once.${ext}`), profile, T0, 600, scene, open);
      const twice = async (path: string): Promise<SceneWriter> => {
        const bag = await open(path);
        return {
          rosChannel: (topic, type) => bag.rosChannel(topic, type),
          async write(topic, message, ms) {
            await bag.write(topic, message, ms);
            await bag.write(topic, message, ms);
          },
          finish: () => bag.finish(),
        };
      };
      await writeCellRecording(join(dir, `twice.${ext}`), profile, T0, 600, scene, twice);
      const once = await replayRecording({ bagPath: join(dir, `once.${ext}`), ...makeGate() });
      const s = await replayRecording({ bagPath: join(dir, `twice.${ext}`), ...makeGate() });
      t.equal(s.messages.total, 2 * once.messages.total);
      t.same(s.skipped.byReason, { 'duplicate-message': once.messages.total });
      t.match(
        s.skipped.examples['duplicate-message'],
        /^\/\S+: a second \S+ message with the same bytes at the same log time \d+ ns \(a merged or re-written bag\): counted once$/,
      );
      t.equal(s.intents, 1);
      t.equal(s.commands.motion, 1, 'one signed command for one trajectory');
      t.same(s.verdicts.byOutcome, once.verdicts.byOutcome);
      t.same(s.measured, once.measured);
      t.match(renderReplaySummary(s), /duplicate-message \(e\.g\. /);
    },
  );
}
