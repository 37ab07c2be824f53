/**
 * zstd chunks (rosbag2's `--compression-format zstd` with MCAP storage, or `mcap compress`) are decompressed and
 * checked against the uncompressed size the chunk record declares: a chunk whose size field says more than its
 * zstd frame holds is corrupt (the chunk CRC is optional, 0 when not written) and ends the replay with an error,
 * never read as zero padding. An lz4 chunk is held to the same size, and one declaring more than any LZ4 frame of
 * its length can hold is refused before an output buffer of that size is allocated.
 */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { armProfile, makeGate, T0 } from '../trap/fixtures.js';
import { lz4Chunks, openBag, writeCellRecording } from '../transports/helpers/recordings.js';

/** Compresses MCAP chunks with the zstd command-line tool (one frame with its content size, as libzstd writes). */
const zstdChunks = (data: Uint8Array) => ({
  compression: 'zstd',
  compressedData: new Uint8Array(execFileSync('zstd', ['-q', '-c', '-3'], { input: data })),
});

/** MCAP Chunk record (MCAP spec, Records): opcode 0x06, u64 length, start and end time, then these fields. */
const CHUNK_OPCODE = 0x06;
const UNCOMPRESSED_SIZE_AT = 1 + 8 + 8 + 8;
const UNCOMPRESSED_CRC_AT = UNCOMPRESSED_SIZE_AT + 8;

/** The file with its first chunk's uncompressed size raised by `extra` bytes and its CRC left out (0). */
function withInflatedChunkSize(file: Buffer, extra: bigint): { bytes: Buffer; size: bigint } {
  let at = 8; // after the magic
  while (file[at] !== CHUNK_OPCODE) at += 9 + Number(file.readBigUInt64LE(at + 1));
  const bytes = Buffer.from(file);
  const size = bytes.readBigUInt64LE(at + UNCOMPRESSED_SIZE_AT) + extra;
  bytes.writeBigUInt64LE(size, at + UNCOMPRESSED_SIZE_AT);
  bytes.writeUInt32LE(0, at + UNCOMPRESSED_CRC_AT);
  return { bytes, size };
}

t.test('a zstd chunk declaring more bytes than its frame holds is an error, not zero padding', async (t) => {
  const profile = armProfile();
  const dir = t.testdir();
  const good = join(dir, 'zstd.mcap');
  await writeCellRecording(good, profile, T0, 200, {}, (p) => openBag(p, zstdChunks));
  const healthy = await replayRecording({ bagPath: good, profile, gate: makeGate().gate });
  t.equal(healthy.error, undefined, 'the zstd-chunked recording itself replays');
  t.ok(healthy.telemetry.accepted > 0);

  for (const extra of [9n, 400_000_000n]) {
    const { bytes, size } = withInflatedChunkSize(await readFile(good), extra);
    const bad = join(dir, `inflated-${extra}.mcap`);
    await writeFile(bad, bytes);
    const s = await replayRecording({ bagPath: bad, profile, gate: makeGate().gate });
    t.match(
      s.error,
      new RegExp(`zstd chunk: expected ${size} bytes after decompression, got \\d+`),
      `${extra} bytes more declared than the frame holds`,
    );
  }
});

t.test(
  'an lz4 chunk declaring more than any frame of its length holds is refused before decoding',
  async (t) => {
    const profile = armProfile();
    const dir = t.testdir();
    const good = join(dir, 'lz4.mcap');
    await writeCellRecording(good, profile, T0, 200, {}, (p) => openBag(p, lz4Chunks));
    const healthy = await replayRecording({ bagPath: good, profile, gate: makeGate().gate });
    t.equal(healthy.error, undefined, 'the lz4-chunked recording itself replays');
    t.ok(healthy.telemetry.accepted > 0);

    const small = withInflatedChunkSize(await readFile(good), 9n);
    await writeFile(join(dir, 'small.mcap'), small.bytes);
    t.match(
      (await replayRecording({ bagPath: join(dir, 'small.mcap'), profile, gate: makeGate().gate })).error,
      /lz4/,
      'a few bytes more than the frame holds: an error',
    );
    const huge = withInflatedChunkSize(await readFile(good), 1n << 40n);
    await writeFile(join(dir, 'huge.mcap'), huge.bytes);
    t.match(
      (await replayRecording({ bagPath: join(dir, 'huge.mcap'), profile, gate: makeGate().gate })).error,
      new RegExp(
        `lz4 chunk: expected ${huge.size} bytes after decompression, more than its \\d+-byte lz4 frame can hold`,
      ),
      'a terabyte declared: refused by its size, with nothing allocated',
    );
  },
);
