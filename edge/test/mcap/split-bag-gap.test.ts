/**
 * A split bag without metadata.yaml (rosbag2 writes it last; a crash leaves `<bag>_0.mcap`, `<bag>_1.mcap`, …
 * alone) that lost a middle file: still replayed, with a warning naming the missing split index.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { renderReplaySummary } from '../../src/mcap/replay-summary.js';
import { T0, makeGate } from '../trap/fixtures.js';
import { TOPICS, jointStateMsg, openBag } from '../transports/helpers/recordings.js';

t.test('a split bag without metadata missing its middle file: replayed, with a warning', async (t) => {
  const dir = t.testdir({ bag: {} });
  const { profile } = makeGate();
  for (const i of [0, 1, 2]) {
    const w = await openBag(join(dir, 'bag', `bag_${i}.mcap`));
    await w.write(TOPICS.joints, jointStateMsg(profile, T0 + 20 * i), T0 + 20 * i);
    await w.finish();
  }
  const whole = await replayRecording({ bagPath: join(dir, 'bag'), ...makeGate() });
  t.same(whole.warnings, [], 'no warning for a complete split');

  await rm(join(dir, 'bag', 'bag_1.mcap'));
  const s = await replayRecording({ bagPath: join(dir, 'bag'), ...makeGate() });
  t.equal(s.error, undefined);
  t.equal(s.messages.total, 2, 'the files that are there are replayed');
  t.match(s.warnings, [/bag: split file 1 of bag_0\.mcap, bag_2\.mcap missing .*gap/]);
  t.match(renderReplaySummary(s), /\nWARNING: .*split file 1 of bag_0\.mcap, bag_2\.mcap missing/);
});
