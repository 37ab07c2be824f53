/**
 * Files often taken for a rosbag2 recording get an error that says what they are and what to do: a ROS 1 bag
 * (format 2.0), a Git LFS pointer left by a clone without git-lfs, and a bag recorded with whole-file
 * compression (rosbag2 `compression_mode: file`: each storage file zstd-compressed, `.mcap.zstd`).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decompress } from 'fzstd';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { T0, makeGate } from '../trap/fixtures.js';
import { TOPICS, jointStateMsg, openBag } from '../transports/helpers/recordings.js';

/** A Zstandard frame holding `data` in one raw block (RFC 8878 §3.1.1: single segment, 4-byte content size). */
function zstdFrame(data: Uint8Array): Buffer {
  const header = Buffer.alloc(4 + 1 + 4 + 3);
  header.writeUInt32LE(0xfd2fb528, 0);
  header[4] = 0xa0; // Frame_Content_Size_flag 2 (4 bytes), Single_Segment_flag
  header.writeUInt32LE(data.length, 5);
  header.writeUIntLE((data.length << 3) | 1, 9, 3); // Last_Block, Block_Type Raw_Block
  return Buffer.concat([header, data]);
}

async function replayError(path: string): Promise<string | undefined> {
  const { gate, profile } = makeGate();
  return (await replayRecording({ bagPath: path, profile, gate })).error;
}

t.test('a ROS 1 bag: said so, with the conversion to rosbag2', async (t) => {
  const path = join(t.testdir(), 'old.bag');
  await writeFile(path, Buffer.concat([Buffer.from('#ROSBAG V2.0\n'), Buffer.alloc(4096, 0x20)]));
  t.match(
    await replayError(path),
    /old\.bag: a ROS 1 bag, not a rosbag2 recording: convert it with the `rosbags` tool/,
  );
});

t.test('a Git LFS pointer: said so, with git lfs pull', async (t) => {
  const path = join(t.testdir(), 'cell.mcap');
  await writeFile(
    path,
    'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n',
  );
  t.match(
    await replayError(path),
    /cell\.mcap: a Git LFS pointer file, not the recording itself: fetch it with `git lfs pull`/,
  );
});

t.test('whole-file compression: by the zstd magic, by metadata.yaml, and by .zstd files alone', async (t) => {
  const dir = t.testdir({ meta: {}, bare: {} });
  const plain = join(dir, 'plain.mcap');
  const { profile } = makeGate();
  const w = await openBag(plain);
  await w.write(TOPICS.joints, jointStateMsg(profile, T0), T0);
  await w.finish();
  const bytes = await readFile(plain);
  const compressed = zstdFrame(bytes);
  t.same(Buffer.from(decompress(compressed)), bytes, 'a real zstd frame of the recording');
  const file = join(dir, 'base_0.mcap');
  await writeFile(file, compressed);
  t.match(
    await replayError(file),
    /base_0\.mcap: a zstd-compressed file: the bag was recorded with whole-file compression \(compression_mode FILE\)/,
  );

  await writeFile(join(dir, 'meta', 'base_0.mcap.zstd'), compressed);
  await writeFile(
    join(dir, 'meta', 'metadata.yaml'),
    'rosbag2_bagfile_information:\n  version: 5\n  storage_identifier: mcap\n  relative_file_paths:\n    - base_0.mcap.zstd\n  compression_format: zstd\n  compression_mode: FILE\n',
  );
  t.match(
    await replayError(join(dir, 'meta')),
    /meta: the bag was recorded with whole-file compression .*`ros2 bag convert`/,
  );
  // decompressed as the error advises (`zstd -d base_0.mcap.zstd`), metadata.yaml unchanged: read, with a warning
  await writeFile(join(dir, 'meta', 'base_0.mcap'), bytes);
  const { gate } = makeGate();
  const s = await replayRecording({ bagPath: join(dir, 'meta'), profile, gate });
  t.equal(s.error, undefined);
  t.equal(s.telemetry.accepted, 1);
  t.match(s.warnings, [
    /meta: metadata\.yaml says compression_mode FILE; the decompressed base_0\.mcap beside the \.zstd files are read/,
  ]);
  await writeFile(join(dir, 'bare', 'base_0.mcap.zstd'), compressed);
  t.match(await replayError(join(dir, 'bare')), /bare: the bag was recorded with whole-file compression/);
});
