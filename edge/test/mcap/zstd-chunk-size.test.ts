/**
 * zstd chunks (rosbag2's `--compression-format zstd` with MCAP storage, or `mcap compress`) are decompressed and
 * checked against the uncompressed size the chunk record declares: a chunk whose size field says more than its
 * zstd frame holds is corrupt (the chunk CRC is optional, 0 when not written) and ends the replay with an error,
 * never read as zero padding.
 */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { armProfile, makeGate, T0 } from '../trap/fixtures.js';
import { openBag, writeCellRecording } from '../transports/helpers/recordings.js';

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
