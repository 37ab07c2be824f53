/**
 * What an MCAP file says about itself, checked before a message of it is replayed (MCAP spec, https://mcap.dev/spec):
 *
 * - The data section is walked record by record (opcode and length only; chunks are not decompressed) for its Chunk
 *   records. A chunk whose compressed records could honestly decompress to more than MAX_CHUNK_UNCOMPRESSED_BYTES is
 *   refused before anything is allocated for it (a decompression bomb: a 156 KB file of zstd chunks declaring
 *   1.5 GB took 3 GB of memory).
 * - When the file has a Summary section (optional in the spec), every Chunk Index must point at a Chunk record of
 *   the data section with the offset, length, times, compression and sizes it gives, every chunk must be indexed,
 *   and the Statistics record's `chunk_count` must be the number of chunks: a chunk cut out or copied in since the
 *   file was written changes what is judged, and the replay would read as complete. The Statistics record's message
 *   counts (`message_count`, and `channel_message_counts` when the writer filled it) are returned, and the reader
 *   holds the messages it read to them once the file is read (`checkMessageCounts`).
 *
 * Refusals are TransportError MCAP_UNREADABLE, the reader's error for a corrupt file: the replay ends with an error
 * (exit 2) as it does when a bag's metadata.yaml counts more messages than were read (recorded-counts.ts). A file
 * without a Summary section is read as it is, with a warning that nothing was checked; chunks whose CRC is 0 ("not
 * computed" in the spec) among chunks that carry one are read, with a warning, since nothing detects a changed byte
 * in them (rosbag2 leaves every chunk's CRC out: not warned of).
 */
import { open } from 'node:fs/promises';
import { McapIndexedReader, type McapTypes } from '@mcap/core';
import { TransportError } from '../transport/transport-error.js';
import { MCAP_MAGIC, MCAP_OPCODES, MCAP_RECORD_PREFIX_BYTES, mcapReadable } from './mcap-file.js';
import { isZstdFrame, zstdContentSize } from './zstd-frame.js';

/**
 * Largest chunk decompressed, in bytes. rosbag2 writes 768 KiB chunks by default (`chunk_size` in its MCAP storage
 * preset profiles; `fastwrite` 4 MiB) and a chunk holds at least one message, so the largest real chunks are those
 * of one big message: a point cloud of several MB, a 4K image of ~25 MB, a 64-beam lidar sweep of ~100 MB. A chunk
 * is held in memory whole, twice while it is decompressed, on an edge computer with a few GB: 256 MiB leaves room
 * for all of those and refuses a chunk that would take the machine's memory (cdr-message.ts caps a zstd-compressed
 * message, rosbag2's per-message compression, at the same size).
 */
export const MAX_CHUNK_UNCOMPRESSED_BYTES = 256 * 1024 * 1024;

/**
 * Output bytes one byte of an LZ4 frame can stand for, at most: a match's length grows by 255 per extra length
 * byte (LZ4 block format, "Match length"), so a frame decodes to under 256 times its size (plus its headers).
 */
export const LZ4_MAX_EXPANSION = 256;
export const LZ4_FRAME_SLACK_BYTES = 64 * 1024;

/**
 * The bytes decompressing a chunk would allocate, when its compressed records could honestly decompress to its
 * declared size; undefined when nothing is allocated for it (uncompressed, an unknown compression) or the
 * decompressor refuses it before allocating, its declared size being one the data cannot hold (a zstd frame
 * declaring more than the chunk, an lz4 frame too short for it; rosbag-reader.ts says which).
 */
export function chunkAllocation(
  compression: string,
  uncompressedSize: bigint,
  recordsLength: bigint,
  recordsHead: Uint8Array,
): bigint | undefined {
  if (compression === 'zstd') {
    const frame = isZstdFrame(recordsHead) ? zstdContentSize(recordsHead) : undefined;
    // A frame without a content size (a streaming compressor, or the zstd tool reading a pipe) is decompressed block
    // by block and stopped at the cap; one declaring more than the chunk is refused; one declaring less is all
    // fzstd allocates for.
    if (frame === undefined) return undefined;
    return BigInt(frame) > uncompressedSize ? undefined : BigInt(frame);
  }
  if (compression === 'lz4') {
    const most = recordsLength * BigInt(LZ4_MAX_EXPANSION) + BigInt(LZ4_FRAME_SLACK_BYTES);
    return uncompressedSize > most ? undefined : uncompressedSize;
  }
  return undefined;
}

/** The refusal of a chunk over the cap (`at`: its offset in the file, when known). */
export function chunkOverCap(declared: bigint, at?: number): string {
  return `${at === undefined ? 'a chunk' : `the chunk at offset ${at}`} declares ${declared} bytes uncompressed, over the ${MAX_CHUNK_UNCOMPRESSED_BYTES} bytes (${MAX_CHUNK_UNCOMPRESSED_BYTES / 1024 / 1024} MiB) a chunk is decompressed to here: refused unread (a decompression bomb, or a recording whose chunks are too large for the edge; rewrite it with smaller chunks, \`mcap convert\` or \`ros2 bag convert\`)`;
}

/** What the Summary section's Statistics record counts, to hold the messages read to. */
export interface RecordedMessageCounts {
  total: bigint;
  /** Per channel id; empty when the writer left `channel_message_counts` empty. */
  byChannel: ReadonlyMap<number, bigint>;
  /** Topics of the Summary's channels, to name them. */
  topics: ReadonlyMap<number, string>;
}

/** One Chunk record of the data section, as its header says. */
interface ChunkRecord {
  offset: number;
  /** Opcode, length and content: the Chunk Index's `chunk_length`. */
  length: number;
  messageStartTime: bigint;
  messageEndTime: bigint;
  uncompressedSize: bigint;
  uncompressedCrc: number;
  compression: string;
  recordsLength: bigint;
}

const { header: OP_HEADER, footer: OP_FOOTER, chunk: OP_CHUNK, dataEnd: OP_DATA_END } = MCAP_OPCODES;
const MAGIC_BYTES = MCAP_MAGIC.byteLength;
const RECORD_PREFIX = MCAP_RECORD_PREFIX_BYTES;
const FOOTER_BYTES = RECORD_PREFIX + 8 + 8 + 4;
/** A chunk's fixed fields (start, end, uncompressed size, CRC, compression length) after its record prefix. */
const CHUNK_FIXED = 8 + 8 + 8 + 4 + 4;
/** Bytes of a chunk's records read to see its zstd frame header (RFC 8878 §3.1.1: at most 18). */
const FRAME_HEAD = 18;
const WINDOW = 64 * 1024;

type FileHandle = Awaited<ReturnType<typeof open>>;

/** Reads a file at offsets through one window, so a run of small records costs one read. */
class WindowedFile {
  private window = Buffer.alloc(0);
  private windowAt = 0;
  constructor(
    private readonly fh: FileHandle,
    readonly size: number,
  ) {}

  /** `n` bytes at `at`, fewer at the end of the file. */
  async bytes(at: number, n: number): Promise<Buffer> {
    if (at >= this.windowAt && at + n <= this.windowAt + this.window.byteLength) {
      return this.window.subarray(at - this.windowAt, at - this.windowAt + n);
    }
    const length = Math.max(0, Math.min(Math.max(n, WINDOW), this.size - at));
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await this.fh.read(buffer, 0, length, at);
    this.window = buffer.subarray(0, bytesRead);
    this.windowAt = at;
    return this.window.subarray(0, Math.min(n, bytesRead));
  }
}

const safe = (n: bigint): number | undefined =>
  n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : undefined;

/**
 * The data section's chunks, walked from the Header to DataEnd (or the Footer), and where the Summary section
 * must start (`end`: after DataEnd); `complete` false when the walk ran into a record it cannot step over (a
 * truncated or corrupt file: the streaming reader reports it).
 */
async function dataSectionChunks(
  file: WindowedFile,
  path: string,
): Promise<{ chunks: ChunkRecord[]; complete: boolean; end: number }> {
  const chunks: ChunkRecord[] = [];
  let at = MAGIC_BYTES;
  let first = true;
  while (at + RECORD_PREFIX <= file.size) {
    const prefix = await file.bytes(at, RECORD_PREFIX + CHUNK_FIXED);
    if (prefix.byteLength < RECORD_PREFIX) break;
    const op = prefix[0]!;
    if (first && op !== OP_HEADER) break;
    first = false;
    if (op === OP_FOOTER) return { chunks, complete: true, end: at };
    const contentLength = safe(prefix.readBigUInt64LE(1));
    if (contentLength === undefined || at + RECORD_PREFIX + contentLength > file.size) break;
    if (op === OP_DATA_END) return { chunks, complete: true, end: at + RECORD_PREFIX + contentLength };
    if (op === OP_CHUNK && contentLength >= CHUNK_FIXED) {
      if (prefix.byteLength < RECORD_PREFIX + CHUNK_FIXED) break;
      const compressionLength = prefix.readUInt32LE(RECORD_PREFIX + 28);
      const recordsAt = at + RECORD_PREFIX + CHUNK_FIXED + compressionLength + 8;
      if (recordsAt > at + RECORD_PREFIX + contentLength) break;
      const tail = await file.bytes(at + RECORD_PREFIX + CHUNK_FIXED, compressionLength + 8 + FRAME_HEAD);
      if (tail.byteLength < compressionLength + 8) break;
      const chunk: ChunkRecord = {
        offset: at,
        length: RECORD_PREFIX + contentLength,
        messageStartTime: prefix.readBigUInt64LE(RECORD_PREFIX),
        messageEndTime: prefix.readBigUInt64LE(RECORD_PREFIX + 8),
        uncompressedSize: prefix.readBigUInt64LE(RECORD_PREFIX + 16),
        uncompressedCrc: prefix.readUInt32LE(RECORD_PREFIX + 24),
        compression: tail.subarray(0, compressionLength).toString('utf8'),
        recordsLength: tail.readBigUInt64LE(compressionLength),
      };
      const allocation = chunkAllocation(
        chunk.compression,
        chunk.uncompressedSize,
        chunk.recordsLength,
        tail.subarray(compressionLength + 8),
      );
      if (allocation !== undefined && allocation > BigInt(MAX_CHUNK_UNCOMPRESSED_BYTES)) {
        throw refused(path, chunkOverCap(chunk.uncompressedSize, at));
      }
      chunks.push(chunk);
    }
    at += RECORD_PREFIX + contentLength;
  }
  return { chunks, complete: false, end: at };
}

function refused(path: string, detail: string): TransportError {
  return new TransportError('MCAP_UNREADABLE', `recording ${path}: ${detail}`);
}

/**
 * The footer's summary start: 0 when the file has no Summary section; undefined when there is no footer or
 * closing magic (the streaming reader says what is wrong).
 */
async function summaryStart(file: WindowedFile): Promise<bigint | undefined> {
  if (file.size < MAGIC_BYTES * 2 + FOOTER_BYTES) return undefined;
  const footer = await file.bytes(file.size - MAGIC_BYTES - FOOTER_BYTES, FOOTER_BYTES + MAGIC_BYTES);
  if (footer.byteLength < FOOTER_BYTES + MAGIC_BYTES || footer[0] !== OP_FOOTER) return undefined;
  if (!footer.subarray(FOOTER_BYTES).equals(MCAP_MAGIC)) return undefined;
  return footer.readBigUInt64LE(RECORD_PREFIX);
}

async function readSummary(fh: FileHandle) {
  return McapIndexedReader.Initialize({ readable: mcapReadable(fh) });
}

/** What differs between a Chunk Index and the chunk record it points at; undefined when nothing does. */
function indexMismatch(index: McapTypes.ChunkIndex, chunk: ChunkRecord): string | undefined {
  const fields: [string, unknown, unknown][] = [
    ['length', index.chunkLength, BigInt(chunk.length)],
    ['message start time', index.messageStartTime, chunk.messageStartTime],
    ['message end time', index.messageEndTime, chunk.messageEndTime],
    ['compression', index.compression, chunk.compression],
    ['compressed size', index.compressedSize, chunk.recordsLength],
  ];
  // Not the uncompressed size: the chunk's own is held to what its data decompresses to (rosbag-reader.ts), and a
  // wrong one refused there, saying what the data holds.
  const differ = fields.find(([, a, b]) => a !== b);
  return differ && `${differ[0]} ${String(differ[1])} where the chunk has ${String(differ[2])}`;
}

const TAMPERED =
  'chunks were cut out, copied in or rewritten since the file was written, so its messages are not the recorded ones and the verdicts would not be either; refused (replay the recording as written)';

/** The first way the data section's chunks differ from the Summary's Chunk Indexes and Statistics. */
function chunkDiscrepancy(
  chunks: readonly ChunkRecord[],
  indexes: readonly McapTypes.ChunkIndex[],
  statistics: McapTypes.Statistics | undefined,
): string | undefined {
  const recorded = [
    ...(statistics ? [`${statistics.chunkCount} chunks (Statistics)`] : []),
    ...(indexes.length > 0 ? [`${indexes.length} Chunk Indexes`] : []),
  ].join(' and ');
  const holds = `its Summary records ${recorded}, the data section holds ${chunks.length} chunks`;
  const byOffset = new Map(chunks.map((c) => [c.offset, c]));
  const indexed = new Set<number>();
  for (const [i, index] of indexes.entries()) {
    const at = safe(index.chunkStartOffset);
    const chunk = at === undefined ? undefined : byOffset.get(at);
    if (!chunk) {
      return `${holds}: Chunk Index ${i + 1} points at offset ${index.chunkStartOffset}, where no chunk record starts`;
    }
    const differs = indexMismatch(index, chunk);
    if (differs) return `${holds}: Chunk Index ${i + 1} gives the chunk at offset ${chunk.offset} ${differs}`;
    if (indexed.has(chunk.offset)) {
      return `${holds}: two Chunk Indexes point at the chunk at offset ${chunk.offset}`;
    }
    indexed.add(chunk.offset);
  }
  if (indexes.length > 0) {
    const unindexed = chunks.find((c) => !indexed.has(c.offset));
    if (unindexed) return `${holds}: the chunk at offset ${unindexed.offset} is in no Chunk Index`;
  }
  if (statistics && statistics.chunkCount !== chunks.length) return holds;
  return undefined;
}

export interface McapIntegrity {
  /** The Statistics record's counts, when the file has one and its chunks are the ones it records. */
  counts?: RecordedMessageCounts;
}

/**
 * Checks the file at `path` (see above) before it is read; throws TransportError MCAP_UNREADABLE when a chunk is
 * over the cap or the chunks are not the ones the Summary records. A file the walk cannot get through (truncated,
 * a corrupt record) is left to the streaming reader, which says where it fails.
 */
export async function checkMcapIntegrity(
  path: string,
  warn: (warning: string) => void = () => {},
): Promise<McapIntegrity> {
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch {
    return {}; // the streaming reader reports it
  }
  try {
    const size = (await fh.stat()).size;
    const file = new WindowedFile(fh, size);
    const { chunks, complete, end } = await dataSectionChunks(file, path);
    if (!complete) return {};
    const start = await summaryStart(file);
    if (start === undefined) return {};
    // rosbag2's MCAP writer leaves every chunk's CRC out (0, "not computed" in the spec): that is the writer's
    // choice, not said. A file whose writer computed CRCs with some chunks at 0 had those rewritten (a CRC zeroed
    // so a changed byte passes): said once, and read, as the spec allows.
    const uncheckedCrcs = chunks.filter((c) => c.uncompressedCrc === 0).length;
    if (uncheckedCrcs > 0 && uncheckedCrcs < chunks.length) {
      warn(
        `${path}: ${uncheckedCrcs} of its ${chunks.length} chunks ${uncheckedCrcs === 1 ? 'carries' : 'carry'} no CRC (0, "not computed" in the MCAP spec) where the others carry one, so a byte changed in ${uncheckedCrcs === 1 ? 'it' : 'them'} since recording is not detected`,
      );
    }
    if (start === 0n) {
      warn(
        `${path}: the file has no Summary section (the MCAP spec allows one to be left out), so the messages read are not checked against counts recorded in it`,
      );
      return {};
    }
    // The Summary section follows DataEnd (MCAP spec, File Structure): a footer pointing elsewhere is a file whose
    // data section grew or shrank after the summary was written.
    if (start !== BigInt(end)) {
      throw refused(
        path,
        `its Footer puts the Summary section at offset ${start}, but the data section ends at offset ${end}: ${TAMPERED}`,
      );
    }
    let summary: Awaited<ReturnType<typeof readSummary>>;
    try {
      summary = await readSummary(fh);
    } catch (err) {
      throw refused(
        path,
        `its Summary section does not read (${(err as Error).message}), so what was recorded cannot be checked; refused (a file corrupted or rewritten since it was written)`,
      );
    }
    const discrepancy = chunkDiscrepancy(chunks, summary.chunkIndexes, summary.statistics);
    if (discrepancy) throw refused(path, `${discrepancy}: ${TAMPERED}`);
    const statistics = summary.statistics;
    if (!statistics) return {};
    return {
      counts: {
        total: statistics.messageCount,
        byChannel: statistics.channelMessageCounts,
        topics: new Map([...summary.channelsById].map(([id, c]) => [id, c.topic])),
      },
    };
  } finally {
    await fh.close();
  }
}

/**
 * Holds the messages read from a file, per channel id, to its Statistics record: throws TransportError
 * MCAP_UNREADABLE when the total, or a channel's count where the Statistics record gives them, differs.
 */
export function checkMessageCounts(
  path: string,
  counts: RecordedMessageCounts,
  read: ReadonlyMap<number, number>,
  topicOf: (channelId: number) => string | undefined,
): void {
  let total = 0n;
  for (const n of read.values()) total += BigInt(n);
  const differ: string[] = [];
  if (counts.byChannel.size > 0) {
    const ids = new Set([...counts.byChannel.keys(), ...read.keys()]);
    for (const id of [...ids].sort((a, b) => a - b)) {
      const recorded = counts.byChannel.get(id) ?? 0n;
      const got = BigInt(read.get(id) ?? 0);
      if (got !== recorded) {
        differ.push(`${topicOf(id) ?? counts.topics.get(id) ?? `channel ${id}`} ${got} of ${recorded}`);
      }
    }
  }
  if (total === counts.total && differ.length === 0) return;
  throw refused(
    path,
    `its Statistics record counts ${counts.total} messages, ${total} were read${differ.length > 0 ? ` (${differ.join(', ')})` : ''}: messages were cut out, copied in or rewritten since the file was written, so the verdicts are not those of the recording; refused (replay the recording as written)`,
  );
}
