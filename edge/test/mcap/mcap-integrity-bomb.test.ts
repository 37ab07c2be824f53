/**
 * Decompression bombs: a chunk whose compressed records honestly decompress to more than the edge decompresses a
 * chunk to (MAX_CHUNK_UNCOMPRESSED_BYTES, 256 MiB) is refused before it is decompressed, with one line naming the
 * chunk's offset, its declared size and the cap. The chunks are built in the test: a zstd frame of RLE blocks that
 * declares and holds 1.5 GB in 48 KB, and an lz4 chunk long enough to hold what it declares.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { MAX_CHUNK_UNCOMPRESSED_BYTES } from '../../src/mcap/mcap-integrity.js';
import { replayRecording } from '../../src/mcap/replay.js';
import { T0, makeGate } from '../trap/fixtures.js';
import { writeCellRecording } from '../transports/helpers/recordings.js';
import { zstdZeros } from './helpers/zstd-zeros.js';

const OP_CHUNK = 0x06;
const MAGIC = 8;

/** A Chunk record (MCAP spec): start and end time, uncompressed size, CRC 0, compression, records. */
function chunkRecord(compression: string, uncompressedSize: number, records: Buffer): Buffer {
  const name = Buffer.from(compression);
  const body = Buffer.alloc(8 + 8 + 8 + 4 + 4 + name.length + 8);
  const ns = BigInt(T0) * 1_000_000n;
  body.writeBigUInt64LE(ns, 0);
  body.writeBigUInt64LE(ns, 8);
  body.writeBigUInt64LE(BigInt(uncompressedSize), 16);
  body.writeUInt32LE(0, 24);
  body.writeUInt32LE(name.length, 28);
  name.copy(body, 32);
  body.writeBigUInt64LE(BigInt(records.length), 32 + name.length);
  const prefix = Buffer.alloc(9);
  prefix[0] = OP_CHUNK;
  prefix.writeBigUInt64LE(BigInt(body.length + records.length), 1);
  return Buffer.concat([prefix, body, records]);
}

/** The intact recording with `chunk` put before its first chunk; where it was put. */
async function withChunk(dir: string, name: string, chunk: Buffer): Promise<{ path: string; at: number }> {
  const intact = join(dir, 'intact.mcap');
  await writeCellRecording(intact, makeGate().profile, T0, 200);
  const file = await readFile(intact);
  let at = MAGIC;
  while (file[at] !== OP_CHUNK) at += 9 + Number(file.readBigUInt64LE(at + 1));
  const path = join(dir, name);
  await writeFile(path, Buffer.concat([file.subarray(0, at), chunk, file.subarray(at)]));
  return { path, at };
}

const CAP = `over the ${MAX_CHUNK_UNCOMPRESSED_BYTES} bytes \\(256 MiB\\) a chunk is decompressed to here`;

t.test('the intact recording replays', async (t) => {
  const intact = join(t.testdir(), 'intact.mcap');
  await writeCellRecording(intact, makeGate().profile, T0, 200);
  t.equal((await replayRecording({ bagPath: intact, ...makeGate() })).error, undefined);
});

t.test('a zstd chunk honestly declaring 1.5 GB is refused unread, naming offset, size and cap', async (t) => {
  const size = 1536 * 1024 * 1024;
  const frame = zstdZeros(size);
  t.ok(frame.length < 64 * 1024, 'a 1.5 GB bomb in under 64 KB');
  const { path, at } = await withChunk(t.testdir(), 'bomb.mcap', chunkRecord('zstd', size, frame));
  const s = await replayRecording({ bagPath: path, ...makeGate() });
  t.match(
    s.error,
    new RegExp(`bomb\\.mcap: the chunk at offset ${at} declares ${size} bytes uncompressed, ${CAP}`),
  );
  t.notOk(/\n/.test(s.error ?? ''), 'one line');
  t.equal(s.messages.total, 0, 'nothing read');
});

t.test(
  'an lz4 chunk declaring more than the cap, which its length could hold, is refused unread',
  async (t) => {
    const size = MAX_CHUNK_UNCOMPRESSED_BYTES + 1;
    // Never decoded: refused by the size it declares, which a frame of this length could reach.
    const records = Buffer.alloc(Math.ceil(size / 256) + 1024, 0x5a);
    const { path, at } = await withChunk(t.testdir(), 'lz4-bomb.mcap', chunkRecord('lz4', size, records));
    const s = await replayRecording({ bagPath: path, ...makeGate() });
    t.match(
      s.error,
      new RegExp(`lz4-bomb\\.mcap: the chunk at offset ${at} declares ${size} bytes uncompressed, ${CAP}`),
    );
  },
);

t.test('a chunk just under the cap is not refused by the cap', async (t) => {
  // 1 MiB of zeros, honest: decompressed, then read as records (zero opcodes: not MCAP records the reader keeps).
  const size = 1024 * 1024;
  const { path } = await withChunk(t.testdir(), 'small.mcap', chunkRecord('zstd', size, zstdZeros(size)));
  const s = await replayRecording({ bagPath: path, ...makeGate() });
  t.notMatch(s.error ?? '', /a chunk is decompressed to here/);
});
