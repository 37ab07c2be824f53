/**
 * An MCAP file's Summary section (MCAP spec: Statistics, Chunk Index records; the Footer's summary start) says what
 * the recorder wrote. A chunk cut out of the file or copied into it afterwards, with the summary kept, is refused
 * with an error (exit 2), as a bag whose metadata.yaml counts more messages than were read: read as it is, a move
 * the intact recording vetoes would be signed. A file without a Summary section (allowed by the spec) is read, with
 * a warning that nothing was checked; a chunk whose CRC is 0 ("not computed") is read, with a warning.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { McapFileSink } from '../../src/mcap/mcap-file-sink.js';
import { replayRecording } from '../../src/mcap/replay.js';
import { RosbagWriter } from '../../src/mcap/rosbag-writer.js';
import { T0, armIntent, makeGate } from '../trap/fixtures.js';
import { registerSceneTopics, writeCellRecording } from '../transports/helpers/recordings.js';

const OP_FOOTER = 0x02;
const OP_CHUNK = 0x06;
const OP_MESSAGE_INDEX = 0x07;
const OP_STATISTICS = 0x0b;
const OP_DATA_END = 0x0f;
const MAGIC = 8;
/** Footer record: opcode, length, summary start, summary offset start, summary CRC (MCAP spec, Footer). */
const FOOTER = 1 + 8 + 8 + 8 + 4;

interface Rec {
  op: number;
  at: number;
  end: number;
}

/** The data section's records, from after the magic to DataEnd. */
function dataRecords(file: Buffer): Rec[] {
  const recs: Rec[] = [];
  let at = MAGIC;
  for (;;) {
    const op = file[at]!;
    const end = at + 9 + Number(file.readBigUInt64LE(at + 1));
    recs.push({ op, at, end });
    if (op === OP_DATA_END) return recs;
    at = end;
  }
}

/** The chunk that holds the message logged at `logTimeMs` (Chunk: opcode, length, start time, end time, …). */
function chunkAt(file: Buffer, logTimeMs: number): { chunk: Rec; block: [number, number] } {
  const recs = dataRecords(file);
  const ns = BigInt(logTimeMs) * 1_000_000n;
  const i = recs.findIndex(
    (r) => r.op === OP_CHUNK && file.readBigUInt64LE(r.at + 9) <= ns && file.readBigUInt64LE(r.at + 17) >= ns,
  );
  let last = i;
  while (recs[last + 1]?.op === OP_MESSAGE_INDEX) last += 1;
  return { chunk: recs[i]!, block: [recs[i]!.at, recs[last]!.end] };
}

/** The file with the footer's summary start moved by `shift` and its summary CRC left out (0, not computed). */
function withFooterShifted(file: Buffer, shift: number): Buffer {
  const out = Buffer.from(file);
  const footer = out.length - MAGIC - FOOTER;
  if (out[footer] !== OP_FOOTER) throw new Error('no footer');
  out.writeBigUInt64LE(out.readBigUInt64LE(footer + 9) + BigInt(shift), footer + 9);
  const offsets = out.readBigUInt64LE(footer + 17);
  if (offsets !== 0n) out.writeBigUInt64LE(offsets + BigInt(shift), footer + 17);
  out.writeUInt32LE(0, footer + 25);
  return out;
}

/** Writes the cell scene in small chunks (many per second), so one chunk is a fraction of a second of it. */
async function writeScene(path: string) {
  const { profile } = makeGate();
  await writeCellRecording(
    path,
    profile,
    T0,
    1000,
    { intents: [[300, armIntent()]], frontHumanM: [[600, 0.3]] },
    async (p) => {
      const sink = await McapFileSink.create(p);
      const bag = await RosbagWriter.open({ writable: sink, chunkSize: 2048 });
      await registerSceneTopics(bag);
      return Object.assign(bag, {
        async finish() {
          await bag.end();
          await sink.close();
        },
      });
    },
  );
}

const replay = (bagPath: string) => replayRecording({ bagPath, ...makeGate() });
const integrityWarnings = (warnings: readonly string[]) =>
  warnings.filter((w) => /Summary section|no CRC/.test(w));

t.test('the intact recording replays, with nothing said of its integrity', async (t) => {
  const path = join(t.testdir(), 'intact.mcap');
  await writeScene(path);
  const s = await replay(path);
  t.equal(s.error, undefined);
  t.same(integrityWarnings(s.warnings), []);
  t.equal(s.intents, 1);
  t.ok(s.messages.total > 100);
});

t.test('a chunk cut out with its message index, the summary kept: refused', async (t) => {
  const dir = t.testdir();
  const intact = join(dir, 'intact.mcap');
  await writeScene(intact);
  const file = await readFile(intact);
  const { block } = chunkAt(file, T0 + 300);
  const cut = Buffer.concat([file.subarray(0, block[0]), file.subarray(block[1])]);

  // As cut: the footer still points where the summary was.
  await writeFile(join(dir, 'cut.mcap'), cut);
  const s = await replay(join(dir, 'cut.mcap'));
  t.match(
    s.error,
    /cut\.mcap: its Footer puts the Summary section at offset \d+, but the data section ends at offset \d+: chunks were cut out, copied in or rewritten since the file was written/,
  );
  t.equal(s.messages.total, 0, 'refused before a message is replayed');
  t.equal(s.intents, 0);

  // The footer mended to the summary (its CRC left out): the Chunk Indexes point at chunks that are gone.
  await writeFile(join(dir, 'cut-footer.mcap'), withFooterShifted(cut, -(block[1] - block[0])));
  const f = await replay(join(dir, 'cut-footer.mcap'));
  t.match(
    f.error,
    /its Summary records (\d+) chunks \(Statistics\) and \1 Chunk Indexes, the data section holds \d+ chunks: Chunk Index \d+ (points at offset \d+, where no chunk record starts|gives the chunk at offset \d+ )/,
  );
  t.equal(f.messages.total, 0);
  t.notOk(/\n/.test(f.error ?? ''), 'one line');
});

t.test('a chunk copied in after itself, footer mended: refused', async (t) => {
  const dir = t.testdir();
  const intact = join(dir, 'intact.mcap');
  await writeScene(intact);
  const file = await readFile(intact);
  const { block } = chunkAt(file, T0 + 300);
  const copy = file.subarray(block[0], block[1]);
  const dup = Buffer.concat([file.subarray(0, block[1]), copy, file.subarray(block[1])]);
  await writeFile(join(dir, 'dup.mcap'), withFooterShifted(dup, copy.length));
  const s = await replay(join(dir, 'dup.mcap'));
  t.match(
    s.error,
    /dup\.mcap: its Summary records (\d+) chunks \(Statistics\) and \1 Chunk Indexes, the data section holds \d+ chunks/,
  );
  t.equal(s.intents, 0, 'the copied intent is not judged');
});

t.test(
  'messages the Statistics record counts and the file does not hold: refused after reading',
  async (t) => {
    const dir = t.testdir();
    const intact = join(dir, 'intact.mcap');
    await writeScene(intact);
    const file = Buffer.from(await readFile(intact));
    const footer = file.length - MAGIC - FOOTER;
    let at = Number(file.readBigUInt64LE(footer + 9));
    while (file[at] !== OP_STATISTICS) at += 9 + Number(file.readBigUInt64LE(at + 1));
    // Statistics: message_count (u64) first; the summary CRC left out (0).
    const recorded = file.readBigUInt64LE(at + 9);
    file.writeBigUInt64LE(recorded + 1n, at + 9);
    file.writeUInt32LE(0, footer + 25);
    await writeFile(join(dir, 'counts.mcap'), file);
    const s = await replay(join(dir, 'counts.mcap'));
    t.match(
      s.error,
      new RegExp(
        `counts\\.mcap: its Statistics record counts ${recorded + 1n} messages, ${recorded} were read`,
      ),
    );
    t.equal(BigInt(s.messages.total), recorded, 'every message was read, then the count refused');
  },
);

t.test('a file without a Summary section is read, and says nothing was checked', async (t) => {
  const dir = t.testdir();
  const intact = join(dir, 'intact.mcap');
  await writeScene(intact);
  const file = await readFile(intact);
  const dataEnd = dataRecords(file).pop()!;
  const footer = Buffer.alloc(FOOTER);
  footer[0] = OP_FOOTER;
  footer.writeBigUInt64LE(20n, 1);
  const bare = Buffer.concat([file.subarray(0, dataEnd.end), footer, file.subarray(0, MAGIC)]);
  await writeFile(join(dir, 'bare.mcap'), bare);
  const s = await replay(join(dir, 'bare.mcap'));
  t.equal(s.error, undefined);
  t.equal(s.messages.total, (await replay(intact)).messages.total);
  t.match(integrityWarnings(s.warnings), [/bare\.mcap: the file has no Summary section .* not checked/]);
});

t.test('a chunk whose CRC is 0 (not computed) among chunks with one is read, with one warning', async (t) => {
  const dir = t.testdir();
  const intact = join(dir, 'intact.mcap');
  await writeScene(intact);
  const file = Buffer.from(await readFile(intact));
  const { chunk } = chunkAt(file, T0 + 300);
  // Chunk: opcode, length, start time, end time, uncompressed size, then the CRC.
  file.writeUInt32LE(0, chunk.at + 9 + 24);
  await writeFile(join(dir, 'nocrc.mcap'), file);
  const s = await replay(join(dir, 'nocrc.mcap'));
  t.equal(s.error, undefined);
  t.match(integrityWarnings(s.warnings), [/nocrc\.mcap: 1 of its \d+ chunks carries no CRC/]);
});

t.test("every chunk without CRC (as rosbag2 writes them) is the writer's choice: nothing said", async (t) => {
  const dir = t.testdir();
  const intact = join(dir, 'intact.mcap');
  await writeScene(intact);
  const file = Buffer.from(await readFile(intact));
  for (const r of dataRecords(file)) if (r.op === OP_CHUNK) file.writeUInt32LE(0, r.at + 9 + 24);
  await writeFile(join(dir, 'nocrcs.mcap'), file);
  const s = await replay(join(dir, 'nocrcs.mcap'));
  t.equal(s.error, undefined);
  t.same(integrityWarnings(s.warnings), []);
});
