/**
 * `edge replay` of the edge's own recordings: a file written by `edge run --record` replays its recorded inputs
 * through the gates (the shipped sample, and one written fresh by the same writer); a file of decisions only
 * (`edge replay --record`) is refused with a clear message and exit 2.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { cli } from '../runtime/helpers/run-edge-cli.js';
import { socatMissing } from './helpers/pty-pair.js';
import { writeSampleRecording } from './helpers/sample-recording.js';

const SAMPLE = join(dirname(fileURLToPath(import.meta.url)), '../../samples/arm-cell');
const missingSocat = socatMissing();

const replay = (dir: string, ...extra: string[]) =>
  cli([
    'edge',
    'replay',
    '--profile',
    join(dir, 'profile.json'),
    '--bag',
    join(dir, 'cell.mcap'),
    '--firmware',
    join(dir, 'fw.manifest.json'),
    ...extra,
  ]);

/** A tap subtest (the type tap hands to `t.test` callbacks). */
type TapTest = Parameters<Parameters<typeof t.test>[0]>[0];

function expectSession(t: TapTest, r: { code: number; out: string; err: string }) {
  t.equal(r.code, 0, r.err);
  t.match(r.out, /\/pentagate\/input\s+\[pentagate\.InboundMessage\] → the edge's recorded inputs/);
  t.match(r.out, /intents\s+1;/);
  t.match(r.out, /verdicts\s+2: signed 1, stopped 1/, 'the move is signed again, and stopped by the person');
  t.match(r.out, /first veto \+[\d.]+ s .* stopped sample-move-1: RISK\.HUMAN_IN_RADIUS/);
  t.match(r.out, /commands\s+1 motion, 1 STOP/);
  t.match(r.out, /recorded\s+\d+ of the edge's own decisions/);
  t.match(r.out, /skipped\s+0/, 'nothing of the own recording is skipped');
}

t.test(
  'the shipped sample (edge/samples/arm-cell) replays: signed move, then a STOP for the person',
  async (t) => {
    const r = await replay(SAMPLE);
    expectSession(t, r);
    t.match(r.out, /measured\s+1 breach \(frames in breach: proximity 1\)/, 'one breach, in the singular');
  },
);

t.test('a recording of decisions only (edge replay --record) is refused: exit 2, says why', async (t) => {
  const dir = t.testdir();
  const out = join(dir, 'decisions.mcap');
  t.equal((await replay(SAMPLE, '--record', out)).code, 0);
  const r = await cli(['edge', 'replay', '--profile', join(SAMPLE, 'profile.json'), '--bag', out]);
  t.equal(r.code, 2);
  t.match(
    r.out,
    /ERROR: the recording holds \d+ of the edge's own outputs .* and no inputs: it was written by `edge replay --record`/,
  );
  t.match(r.out, /verdicts\s+0: none/, 'nothing was decided from recorded decisions');
});

t.test(
  'a recording written now by edge run --record (serial line) replays the same way',
  { skip: missingSocat },
  async (t) => {
    const dir = t.testdir();
    await writeSampleRecording(dir, dir);
    expectSession(t, await replay(dir));
  },
);
