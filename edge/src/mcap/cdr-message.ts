/**
 * Turning a recorded message's bytes into a message, or into a named problem — never into a guess.
 *
 * Definitions: `ros2msgReader` parses a recording's `ros2msg` text after unifying its type names
 * (`pkg/msg/Type` and `pkg/Type` mixed in one text, as some writers do) and names a dependency the text lacks.
 *
 * Payloads (`decodeCdrMessage`):
 *   - rosbag2's per-message compression (`compression_mode: message`, `compression_format: zstd`) stores each
 *     message as one zstd frame (RFC 8878, magic 28 B5 2F FD); such a payload is decompressed first. A CDR payload
 *     never starts with those bytes: its first byte is 0 (the encapsulation identifier's high byte).
 *   - The encapsulation header (the first 2 of 4 bytes; DDS-XTypes 1.3 §7.6.3.1.2, RTPS 2.5 §10.2) must be
 *     classic CDR (XCDR1), big- or little-endian: CDR_BE 0x0000, CDR_LE 0x0001. XCDR2 (PLAIN_CDR2 0x0006/7,
 *     DELIMITED_CDR2 0x0008/9, PL_CDR2 0x000a/b) aligns 8-byte values to 4 and puts delimiter headers before
 *     appendable structs and sequences of strings or structs, which the decoder does not read: decoding such
 *     bytes as XCDR1 would yield wrong values without an error, so they are refused, as are parameter lists
 *     (PL_CDR 0x0002/3) and unknown identifiers.
 *   - A message must use its bytes: more than 7 left over after decoding (alignment padding is at most 3, and
 *     an XCDR1 payload may be padded to 8) means the definition does not describe the data.
 */
import { parse as parseMsgDefinition } from '@foxglove/rosmsg';
import { MessageReader } from '@foxglove/rosmsg2-serialization';
import { unifyTypeNames } from '../ros/ros-message-definitions.js';
import type { RecordingProblemReason } from './rosbag-reader.js';
import { isZstdFrame, ZstdTooLarge, zstdContentSize, zstdDecompressAtMost } from './zstd-frame.js';

/** A `ros2msg` definition parsed for decoding. Throws an Error that names what is wrong with the text. */
export function ros2msgReader(text: string): MessageReader {
  try {
    return new MessageReader(parseMsgDefinition(unifyTypeNames(text), { ros2: true }));
  } catch (err) {
    const message = (err as Error).message;
    const missing =
      /top level type definition for '([^']+)' but found 0/.exec(message)?.[1] ??
      /Missing type definition for (\S+)/.exec(message)?.[1] ??
      /Unrecognized complex type (\S+)/.exec(message)?.[1];
    if (missing) {
      throw new Error(
        `the definition text lacks ${missing} (no \`MSG: ${missing}\` section): it is incomplete`,
      );
    }
    if (/Could not parse line: '---'/.test(message)) {
      throw new Error('the text is a service or action definition (it has a --- separator)');
    }
    throw err;
  }
}

/** Largest message taken out of a zstd frame (a 4K image is ~25 MB; a bigger frame is refused, not allocated). */
const MAX_DECOMPRESSED_BYTES = 256 * 1024 * 1024;
/** Bytes a decoded message may leave unread (alignment and payload padding). */
const MAX_TRAILING_BYTES = 7;

const ENCAPSULATIONS: ReadonlyMap<number, string> = new Map([
  [0x0002, 'PL_CDR big-endian (XCDR1 parameter list)'],
  [0x0003, 'PL_CDR little-endian (XCDR1 parameter list)'],
  [0x0006, 'XCDR2 PLAIN_CDR2 big-endian'],
  [0x0007, 'XCDR2 PLAIN_CDR2 little-endian'],
  [0x0008, 'XCDR2 DELIMITED_CDR2 big-endian'],
  [0x0009, 'XCDR2 DELIMITED_CDR2 little-endian'],
  [0x000a, 'XCDR2 PL_CDR2 big-endian'],
  [0x000b, 'XCDR2 PL_CDR2 little-endian'],
]);

export type DecodedMessage =
  | { ok: true; message: unknown }
  | { ok: false; reason: RecordingProblemReason; detail: string };

/** Decodes one recorded payload; `what` names it in problems (`/joint_states: sensor_msgs/msg/JointState message`). */
export function decodeCdrMessage(reader: MessageReader, data: Uint8Array, what: string): DecodedMessage {
  let bytes = data;
  let compressed = '';
  if (isZstdFrame(data)) {
    const declared = zstdContentSize(data);
    if (declared !== undefined && declared > MAX_DECOMPRESSED_BYTES) {
      return {
        ok: false,
        reason: 'decode-failed',
        detail: `${what}: a zstd frame declaring ${declared} bytes, over the ${MAX_DECOMPRESSED_BYTES} bytes read from one message`,
      };
    }
    try {
      // bounded as it decompresses: a frame without a content size declares nothing to refuse it by
      bytes = zstdDecompressAtMost(data, MAX_DECOMPRESSED_BYTES);
    } catch (err) {
      if (err instanceof ZstdTooLarge) {
        return {
          ok: false,
          reason: 'decode-failed',
          detail: `${what}: a zstd frame holding more than the ${MAX_DECOMPRESSED_BYTES} bytes read from one message`,
        };
      }
      return {
        ok: false,
        reason: 'decode-failed',
        detail: `${what} of ${data.byteLength} bytes is a zstd frame (rosbag2 compression_mode message) that does not decompress: ${(err as Error).message}`,
      };
    }
    compressed = ` (zstd-compressed, ${data.byteLength} bytes)`;
  }
  if (bytes.byteLength < 4) {
    return {
      ok: false,
      reason: 'decode-failed',
      detail: `${what} of ${bytes.byteLength} bytes${compressed} is shorter than the 4-byte CDR header`,
    };
  }
  const id = (bytes[0]! << 8) | bytes[1]!;
  if (id !== 0x0000 && id !== 0x0001) {
    const name = ENCAPSULATIONS.get(id) ?? 'not a CDR encapsulation';
    return {
      ok: false,
      reason: 'unsupported-encapsulation',
      detail: `${what}${compressed} has encapsulation 0x${id.toString(16).padStart(4, '0')} (${name}); only classic CDR (XCDR1, 0x0000 big-endian, 0x0001 little-endian) is read: record with an RMW that writes XCDR1 (rmw_fastrtps_cpp, rmw_cyclonedds_cpp), or convert the topic`,
    };
  }
  let message: unknown;
  try {
    message = reader.readMessage(bytes);
  } catch (err) {
    return {
      ok: false,
      reason: 'decode-failed',
      detail: `${what} of ${bytes.byteLength} bytes${compressed} does not decode: ${(err as Error).message}`,
    };
  }
  const left = bytes.byteLength - reader.lastReadByteLength();
  if (left > MAX_TRAILING_BYTES) {
    return {
      ok: false,
      reason: 'decode-failed',
      detail: `${what} of ${bytes.byteLength} bytes${compressed} leaves ${left} bytes unread: the definition does not describe the data (another version of the type?)`,
    };
  }
  return { ok: true, message };
}
