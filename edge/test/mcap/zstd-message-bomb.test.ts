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

/** zstd Block_Maximum_Size (RFC 8878 §3.1.1.2.4). */
const BLOCK = 128 * 1024;

/**
 * A zstd frame (RFC 8878 §3.1.1) of `size` zero bytes that declares no content size: a window descriptor of
 * 128 KiB (exponent 7), then RLE blocks (header: last flag, type 1, size; then the byte repeated).
 */
function unsizedZeros(size: number): Uint8Array {
  const head = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0b0000_0000, 7 << 3]);
  const blocks: Buffer[] = [];
  for (let left = size; left > 0; left -= BLOCK) {
    const n = Math.min(BLOCK, left);
    const b = Buffer.alloc(4);
    b.writeUIntLE(((left <= BLOCK ? 1 : 0) | (1 << 1) | (n << 3)) >>> 0, 0, 3);
    blocks.push(b);
  }
  return new Uint8Array(Buffer.concat([head, ...blocks]));
}

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
