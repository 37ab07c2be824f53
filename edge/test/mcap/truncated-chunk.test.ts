/**
 * A recording that stops inside a chunk (a recorder killed mid-chunk): chunks are only read whole and CRC-checked,
 * so that chunk's messages are not replayed, and the error says so and how to get them back (`mcap recover`).
 * A file cut inside an unchunked message gets no such advice: nothing of that message can be recovered.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { T0, makeGate } from '../trap/fixtures.js';
import { writeCellRecording } from '../transports/helpers/recordings.js';

t.test('cut inside the last chunk: the error names the lost chunk and mcap recover', async (t) => {
  const dir = t.testdir();
  const { profile } = makeGate();
  const full = join(dir, 'full.mcap');
  await writeCellRecording(full, profile, T0, 400);
  const bytes = await readFile(full);
  const cut = join(dir, 'killed.mcap');
  await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.7)));
  const s = await replayRecording({ bagPath: cut, ...makeGate() });
  t.match(
    s.error,
    /killed\.mcap: truncated after \d+ bytes \(\d+ bytes of an incomplete record; the footer is missing\): the recording stops inside a chunk, whose messages \(the last ones recorded\) are not replayed; `mcap recover killed\.mcap -o recovered\.mcap` \(the mcap command-line tool\) rewrites the complete ones/,
  );
  t.equal(s.commands.motion, 0);
});
