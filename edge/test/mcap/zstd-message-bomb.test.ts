/**
 * rosbag2's per-message compression stores each message as one zstd frame. A frame that declares no content size
 * (a streaming compressor writes none) cannot be refused from its header: decompressed whole, a 118 KB file took
 * ~900 MB (outside review). It is now decompressed block by block and refused once it holds more than one
 * message may (256 MiB), before that is allocated.
 */
import t from 'tap';
import { decodeCdrMessage, ros2msgReader } from '../../src/mcap/cdr-message.js';
import { ZstdTooLarge, zstdDecompressAtMost } from '../../src/mcap/zstd-frame.js';
import { ros2msgSchema } from '../../src/ros/ros-message-definitions.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { ZSTD_BLOCK_BYTES, zstdZeros } from './helpers/zstd-zeros.js';

const BLOCK = ZSTD_BLOCK_BYTES;
const unsizedZeros = (size: number) => new Uint8Array(zstdZeros(size, false));

t.test('an unsized frame decompresses to what it holds, up to the bound', async (t) => {
  t.equal(zstdDecompressAtMost(unsizedZeros(3 * BLOCK + 5), 4 * BLOCK).byteLength, 3 * BLOCK + 5);
  let thrown: unknown;
  try {
    zstdDecompressAtMost(unsizedZeros(3 * BLOCK), 2 * BLOCK);
  } catch (err) {
    thrown = err;
  }
  t.ok(thrown instanceof ZstdTooLarge, `refused past the bound: ${String(thrown)}`);
});

t.test('a message frame holding 300 MiB is refused, not decompressed whole', async (t) => {
  const frame = unsizedZeros(300 * 1024 * 1024);
  t.ok(frame.byteLength < 16_000, `${frame.byteLength} bytes on disk`);
  const reader = ros2msgReader(ros2msgSchema(ROS_TYPES.jointState)!);
  const r = decodeCdrMessage(reader, frame, '/joint_states: sensor_msgs/msg/JointState message');
  t.match(r, {
    ok: false,
    reason: 'decode-failed',
    detail: /^\/joint_states: .*a zstd frame holding more than the 268435456 bytes read from one message$/,
  });
});
