/**
 * A recording made on simulated time (`ros2 bag record --use-sim-time` in Gazebo: log times are seconds from the
 * simulation's start): provenance is judged at the recording's time, so every intent is vetoed, and the summary
 * says why in one warning instead of leaving "certificates are issued in the future" to be puzzled over.
 */
import { join } from 'node:path';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { T0, armIntent, makeGate } from '../trap/fixtures.js';
import { batteryMsg, openBag, TOPICS, writeCellRecording } from '../transports/helpers/recordings.js';

t.test('a recording on simulated time is vetoed, with a warning naming the clock', async (t) => {
  const path = join(t.testdir(), 'gazebo.mcap');
  const { gate, profile } = makeGate();
  const simStartMs = 12_000;
  await writeCellRecording(path, profile, simStartMs, 1000, { intents: [[100, armIntent()]] });
  const s = await replayRecording({ bagPath: path, profile, gate });
  t.equal(s.error, undefined);
  t.equal(s.commands.motion, 0);
  t.match(s.firstVeto, { outcome: 'vetoed', violation: /^PROVENANCE\./ });
  t.match(s.warnings, [/log time starts at 1970-01-01T00:00:12\.000Z: a simulated clock .*--use-sim-time/]);
});

t.test('a recording on wall-clock time gets no such warning', async (t) => {
  const path = join(t.testdir(), 'cell.mcap');
  const { gate, profile } = makeGate();
  await writeCellRecording(path, profile, T0, 200, { intents: [[100, armIntent()]] });
  const s = await replayRecording({ bagPath: path, profile, gate });
  t.equal(s.commands.motion, 1);
  t.same(s.warnings, []);
});

t.test(
  'one message stamped at 1970 in a wall-clock recording is named, not left to be puzzled over',
  async (t) => {
    // outside review: one sqlite3 row with timestamp -5 started the replay in 1970, and every intent was vetoed
    // PROVENANCE with no word about the clock
    const path = join(t.testdir(), 'one-bad-stamp.mcap');
    const { gate, profile } = makeGate();
    const withEarlyMessage = async (p: string) => {
      const bag = await openBag(p);
      await bag.write(TOPICS.battery, batteryMsg(0), 0);
      return bag;
    };
    await writeCellRecording(path, profile, T0, 200, { intents: [[100, armIntent()]] }, withEarlyMessage);
    const s = await replayRecording({ bagPath: path, profile, gate });
    t.match(s.warnings, [
      /log time starts at 1970-01-01T00:00:00\.000Z but ends at 20\d\d-.*a corrupt timestamp/,
    ]);
  },
);
