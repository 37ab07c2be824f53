/**
 * Reads a rosbag2 recording in MCAP (https://mcap.dev/spec) and yields its messages decoded from CDR, in file
 * order, or a problem for each message that cannot be decoded. The reader streams: records are parsed as the
 * file is read (McapStreamReader), so a recording larger than memory replays, and a truncated file yields every
 * complete record before it fails.
 *
 * Schemas come from the file (`ros2msg`, parsed with @foxglove/rosmsg). A schema record without text (`ros2msg`, or
 * the empty encoding rosbag2 writes when it found no definition) falls back to the bundled standard definitions
 * (edge/src/ros/ros-message-definitions.ts). Channels that are not CDR, schemas
 * that are `ros2idl` or unknown, channels without a schema, and messages that do not decode become problems
 * (counted by the replay), never guesses. Chunks may be uncompressed, zstd (fzstd) or lz4 (LZ4 frames, as the
 * MCAP spec's `lz4` compression says; @foxglove/wasm-lz4, the decoder MCAP's own tools use).
 *
 * JSON channels with a `jsonschema` schema (what the edge's own `--record` writes: schema names `pentagate.*`)
 * are read with the strict JSON reader and yielded with the schema name as their type.
 */
import { createReadStream } from 'node:fs';
import { open as openFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { McapStreamReader, type McapTypes } from '@mcap/core';
import lz4Decompress from '@foxglove/wasm-lz4';
import { decompress as zstdDecompress } from 'fzstd';
import { readJson } from '@pentagate/protocol';
import { normalizeRosType, ros2msgSchema } from '../ros/ros-message-definitions.js';
import { TransportError } from '../transport/transport-error.js';
import { DuplicateMessages } from './duplicate-messages.js';
import type { LogTimeOrderCounts } from './log-time-order.js';
import {
  checkMcapIntegrity,
  checkMessageCounts,
  chunkOverCap,
  LZ4_FRAME_SLACK_BYTES,
  LZ4_MAX_EXPANSION,
  MAX_CHUNK_UNCOMPRESSED_BYTES,
  type RecordedMessageCounts,
} from './mcap-integrity.js';
import { MCAP_OPCODES } from './mcap-file.js';
import { indexedMessages, mcapReadOrder } from './mcap-order-scan.js';
import { cdrTopicDecoder, storedMessage, type TopicDecoder } from './stored-message.js';
import { isZstdFrame, ZstdTooLarge, zstdContentSize, zstdDecompressAtMost } from './zstd-frame.js';

export type RecordingProblemReason =
  | 'duplicate-message'
  | 'unknown-encoding'
  | 'missing-schema'
  | 'bad-schema'
  | 'decode-failed'
  | 'unsupported-encapsulation';

export const RECORDING_PROBLEM_REASONS: readonly RecordingProblemReason[] = [
  'duplicate-message',
  'unknown-encoding',
  'missing-schema',
  'bad-schema',
  'decode-failed',
  'unsupported-encapsulation',
];

/**
 * Whether a topic's messages are wanted, asked once per topic and type (normalized) before anything is decoded:
 * an unwanted topic's messages are yielded as `unread`, so a type nothing reads (a service event, a camera
 * image) costs neither a schema parse nor a decode, and its schema cannot fail.
 */
export type WantedTopic = (topic: string, type: string) => boolean;

export interface ReadOptions {
  wanted?: WantedTopic;
  /**
   * Given, an MCAP file whose stored order the replay's window cannot mend is read through its index in log-time
   * order (mcap-order-scan.ts), and the messages put back in place are added here.
   */
  logTimeOrder?: LogTimeOrderCounts;
  /** Told what a reader should know about a recording that is still read (mcap-integrity.ts: chunks without CRC). */
  warn?: (warning: string) => void;
}

export type RecordedItem =
  | { kind: 'message'; topic: string; type: string; logTimeNs: bigint; message: unknown }
  | { kind: 'unread'; topic: string; type: string; logTimeNs: bigint }
  | {
      kind: 'problem';
      topic: string;
      type: string;
      logTimeNs: bigint;
      reason: RecordingProblemReason;
      detail: string;
    };

type ChannelDecoder = TopicDecoder;

/** Largest JSON message read from a recording (the edge's inbound limit, with room for the recorded wrapper). */
const MAX_JSON_MESSAGE_BYTES = 128 * 1024;

function sized(compression: string, out: Uint8Array, size: bigint): Uint8Array {
  if (BigInt(out.byteLength) !== size) {
    throw new Error(
      `${compression} chunk: expected ${size} bytes after decompression, got ${out.byteLength}`,
    );
  }
  return out;
}

/**
 * A zstd chunk is decompressed without an output buffer: given one, fzstd returns that whole buffer however little
 * it wrote (a chunk declaring more bytes than its frame holds would pass, padded with zeros) and turns it into a
 * string on every call (several times slower on MB-sized chunks, and "Invalid string length" past ~256 MB). A frame
 * declaring more than the chunk's uncompressed size is refused before fzstd allocates for it, and so is one that
 * would decompress to more than MAX_CHUNK_UNCOMPRESSED_BYTES (mcap-integrity.ts refuses it first, naming its offset).
 * A frame that declares no content size (a streaming compressor) is decompressed block by block into the chunk's
 * declared size, and refused as soon as it holds more.
 */
function zstdChunk(buffer: Uint8Array, size: bigint): Uint8Array {
  const declared = isZstdFrame(buffer) ? zstdContentSize(buffer) : undefined;
  if (declared !== undefined && BigInt(declared) > size) {
    throw new Error(
      `zstd chunk: expected ${size} bytes after decompression, its zstd frame declares ${declared}`,
    );
  }
  if (declared === undefined) return zstdUnsized(buffer, size);
  if (declared > MAX_CHUNK_UNCOMPRESSED_BYTES) throw new Error(`zstd ${chunkOverCap(size)}`);
  return sized('zstd', zstdDecompress(buffer), size);
}

/**
 * A zstd frame without a content size, decompressed block by block: what it holds is allocated as it comes, and
 * refused once that is more than the chunk declares or the cap (so a chunk declaring more than its frame holds is
 * told by what the frame holds, as one with a content size is).
 */
function zstdUnsized(buffer: Uint8Array, size: bigint): Uint8Array {
  const most = size < BigInt(MAX_CHUNK_UNCOMPRESSED_BYTES) ? Number(size) : MAX_CHUNK_UNCOMPRESSED_BYTES;
  try {
    return sized('zstd', zstdDecompressAtMost(buffer, most), size);
  } catch (err) {
    if (!(err instanceof ZstdTooLarge)) throw err;
    throw new Error(
      BigInt(most) === size
        ? `zstd chunk: expected ${size} bytes after decompression, its zstd frame holds more`
        : `zstd ${chunkOverCap(size)}`,
    );
  }
}

/**
 * An lz4 chunk whose declared size no frame of its length could reach is corrupt: refused before an output
 * buffer of that size is allocated (the decoder takes the size as given).
 */
function lz4Chunk(buffer: Uint8Array, size: bigint): Uint8Array {
  const most = BigInt(buffer.byteLength) * BigInt(LZ4_MAX_EXPANSION) + BigInt(LZ4_FRAME_SLACK_BYTES);
  if (size > most) {
    throw new Error(
      `lz4 chunk: expected ${size} bytes after decompression, more than its ${buffer.byteLength}-byte lz4 frame can hold`,
    );
  }
  if (size > BigInt(MAX_CHUNK_UNCOMPRESSED_BYTES)) throw new Error(`lz4 ${chunkOverCap(size)}`);
  return sized('lz4', lz4Decompress(buffer, Number(size)), size);
}

const DECOMPRESS = { zstd: zstdChunk, lz4: lz4Chunk };

function channelDecoder(
  channel: McapTypes.Channel,
  schemas: ReadonlyMap<number, McapTypes.Schema>,
  wanted: WantedTopic,
): ChannelDecoder {
  const topic = channel.topic;
  const schema = schemas.get(channel.schemaId);
  const type = schema ? normalizeRosType(schema.name) : '(no schema)';
  if (channel.messageEncoding === 'json' && schema?.encoding === 'jsonschema') {
    const what = `${topic} message`;
    if (!wanted(topic, schema.name)) return { ok: 'unread', topic, type: schema.name };
    return {
      ok: true,
      topic,
      type: schema.name,
      decode(data) {
        try {
          return { ok: true, message: readJson(data, { what, maxBytes: MAX_JSON_MESSAGE_BYTES }) };
        } catch (err) {
          return {
            ok: false,
            reason: 'decode-failed',
            detail: `${topic}: ${schema.name} message of ${data.byteLength} bytes does not decode: ${(err as Error).message}`,
          };
        }
      },
    };
  }
  if (schema && !wanted(topic, type)) return { ok: 'unread', topic, type };
  const fail = (reason: RecordingProblemReason, detail: string): ChannelDecoder => ({
    ok: false,
    topic,
    type,
    reason,
    detail: `${topic}: ${detail}`,
  });
  if (channel.messageEncoding !== 'cdr') {
    return fail(
      'unknown-encoding',
      `message encoding ${JSON.stringify(channel.messageEncoding)} is not supported (expected cdr)`,
    );
  }
  if (channel.schemaId === 0 || !schema) {
    return fail(
      'missing-schema',
      channel.schemaId === 0 ? 'channel has no schema' : `schema id ${channel.schemaId} is not in the file`,
    );
  }
  let text = new TextDecoder('utf-8', { fatal: false }).decode(schema.data);
  // rosbag2_cpp's SequentialWriter records a type whose definition it cannot find with an empty definition and an
  // empty encoding ("Message definition ... will be left empty in bag"): no definition, as an empty ros2msg text.
  const leftEmpty = schema.encoding === '' && text.trim().length === 0;
  if (schema.encoding !== 'ros2msg' && !leftEmpty) {
    return fail(
      'unknown-encoding',
      `schema encoding ${JSON.stringify(schema.encoding)} is not supported (expected ros2msg)`,
    );
  }
  if (text.trim().length === 0) {
    const bundled = ros2msgSchema(type);
    if (!bundled)
      return fail('missing-schema', `schema ${type} is empty and no standard definition is bundled for it`);
    text = bundled;
  }
  return cdrTopicDecoder(topic, type, text, 'schema');
}

function unreadable(path: string, detail: string): TransportError {
  return new TransportError('MCAP_UNREADABLE', `recording ${path}: ${detail}`);
}

/**
 * Yields every message of the recording at `path`. Throws TransportError MCAP_UNREADABLE when the file is not
 * MCAP, is truncated, or a record is corrupt (after yielding everything before that point).
 */
export async function* readRosbag(
  path: string,
  options: ReadOptions = {},
): AsyncGenerator<RecordedItem, void, void> {
  const wanted = options.wanted ?? (() => true);
  await lz4Decompress.isLoaded;
  // Chunks over the cap, or not the ones the Summary records, are refused before anything is read or decompressed.
  const { counts } = await checkMcapIntegrity(path, options.warn);
  if (options.logTimeOrder) {
    const order = await mcapReadOrder(path, DECOMPRESS);
    if (order.kind === 'indexed') {
      options.logTimeOrder.reordered += order.counts.reordered;
      yield* readIndexed(path, wanted, counts);
      return;
    }
  }
  const reader = new McapStreamReader({ validateCrcs: true, decompressHandlers: DECOMPRESS });
  const schemas = new Map<number, McapTypes.Schema>();
  const decoders = new Map<number, ChannelDecoder>();
  const channels = new Map<number, McapTypes.Channel>();
  const duplicates = new DuplicateMessages();
  const read = new Map<number, number>();
  let offset = 0;
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  try {
    for await (const chunk of stream) {
      const bytes = chunk as Buffer;
      offset += bytes.byteLength;
      try {
        reader.append(bytes);
      } catch (err) {
        throw unreadable(path, `${(err as Error).message} (within the first ${offset} bytes)`);
      }
      for (;;) {
        let record: McapTypes.TypedMcapRecord | undefined;
        try {
          record = reader.nextRecord();
        } catch (err) {
          const message = (err as Error).message;
          // an unsupported compression, not a failed decompression (that is a corrupt chunk: nothing to convert)
          const hint = /unsupported compression|compression .*not supported/i.test(message)
            ? ' (recompress the recording with `ros2 bag convert` or `mcap convert`; uncompressed, zstd and lz4 chunks are read)'
            : '';
          throw unreadable(path, `${message}${hint} (within the first ${offset} bytes)`);
        }
        if (!record) break;
        if (record.type === 'Schema') {
          schemas.set(record.id, record);
        } else if (record.type === 'Channel') {
          channels.set(record.id, record);
          decoders.delete(record.id);
        } else if (record.type === 'Message') {
          read.set(record.channelId, (read.get(record.channelId) ?? 0) + 1);
          yield decodeMessage(record, channels, schemas, decoders, wanted, duplicates);
        }
      }
    }
  } catch (err) {
    if (err instanceof TransportError) throw err;
    throw unreadable(path, (err as Error).message);
  } finally {
    stream.destroy();
  }
  if (!reader.done()) {
    const remaining = reader.bytesRemaining();
    throw unreadable(
      path,
      offset === 0
        ? 'the file is empty'
        : `truncated after ${offset} bytes (${remaining} bytes of an incomplete record; the footer is missing)${await incompleteChunkHint(path, offset - remaining, remaining)}`,
    );
  }
  if (counts) checkMessageCounts(path, counts, read, (id) => channels.get(id)?.topic);
}

/** readRosbag through the file's index, in log-time order (mcap-order-scan.ts). */
async function* readIndexed(
  path: string,
  wanted: WantedTopic,
  counts: RecordedMessageCounts | undefined,
): AsyncGenerator<RecordedItem, void, void> {
  const decoders = new Map<number, ChannelDecoder>();
  const duplicates = new DuplicateMessages();
  const read = new Map<number, number>();
  let topics: ReadonlyMap<number, McapTypes.Channel> = new Map();
  try {
    for await (const { message, channels, schemas } of indexedMessages(path, DECOMPRESS)) {
      topics = channels;
      read.set(message.channelId, (read.get(message.channelId) ?? 0) + 1);
      yield decodeMessage(message, channels, schemas, decoders, wanted, duplicates);
    }
  } catch (err) {
    throw unreadable(path, `${(err as Error).message} (reading through the index)`);
  }
  // A message the Message Indexes leave out is not read through them: held to the Statistics record as streamed.
  if (counts) checkMessageCounts(path, counts, read, (id) => topics.get(id)?.topic);
}

/**
 * What is lost when a file ends inside a chunk (a recorder killed: rosbag2 writes 768 KiB chunks by default, so
 * seconds of data just before the stop), and how to get it back. Chunks are only read whole, CRC-checked; the
 * mcap tool's `recover` rewrites the complete records of an incomplete chunk into a file that replays.
 */
async function incompleteChunkHint(path: string, at: number, length: number): Promise<string> {
  if (length < 1) return '';
  try {
    const fh = await openFile(path, 'r');
    try {
      const { bytesRead, buffer } = await fh.read(Buffer.alloc(1), 0, 1, at);
      if (bytesRead !== 1 || buffer[0] !== MCAP_OPCODES.chunk) return '';
    } finally {
      await fh.close();
    }
  } catch {
    return '';
  }
  return `: the recording stops inside a chunk, whose messages (the last ones recorded) are not replayed; \`mcap recover ${basename(path)} -o recovered.mcap\` (the mcap command-line tool) rewrites the complete ones, and the recovered file replays`;
}

function decodeMessage(
  record: McapTypes.Message,
  channels: ReadonlyMap<number, McapTypes.Channel>,
  schemas: ReadonlyMap<number, McapTypes.Schema>,
  decoders: Map<number, ChannelDecoder>,
  wanted: WantedTopic,
  duplicates: DuplicateMessages,
): RecordedItem {
  const logTimeNs = record.logTime;
  const channel = channels.get(record.channelId);
  if (!channel) {
    return {
      kind: 'problem',
      topic: `(channel ${record.channelId})`,
      type: '(unknown)',
      logTimeNs,
      reason: 'missing-schema',
      detail: `message on channel ${record.channelId}, which the file never defines`,
    };
  }
  let decoder = decoders.get(record.channelId);
  if (!decoder) {
    decoder = channelDecoder(channel, schemas, wanted);
    decoders.set(record.channelId, decoder);
  }
  if (decoder.ok === 'unread') {
    return { kind: 'unread', topic: decoder.topic, type: decoder.type, logTimeNs };
  }
  if (!decoder.ok) {
    return {
      kind: 'problem',
      topic: decoder.topic,
      type: decoder.type,
      logTimeNs,
      reason: decoder.reason,
      detail: decoder.detail,
    };
  }
  return storedMessage(decoder, logTimeNs, record.data, duplicates);
}
