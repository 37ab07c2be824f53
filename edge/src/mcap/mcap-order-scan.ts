/**
 * Whether an MCAP file must be read through its index to replay in log-time order. log-time-order.ts streams the
 * file and puts back messages stored up to a window (1 s of log time) late; a writer that stores a topic in
 * chunks of its own (every /cmd_vel after all the sensor data) stores messages far more than that late, and
 * streamed they would be replayed at the end of the recording, each command judged against the last sensor frames.
 * When such a file has an index (MCAP spec: Summary section with Chunk Index records, and a Statistics record),
 * McapIndexedReader reads it in log-time order, as rosbag2_storage_mcap's LogTimeOrder does for `ros2 bag play`.
 *
 * The index is used only when the stream would leave messages late and every late message has a log time inside
 * the recording: a zero or stale log time (a writer that left it unset) would be sorted to the start and judged
 * at 1970, so such a file keeps the stream's rule (replayed where stored, counted and warned of). The edge's own
 * recordings (`edge run --record`) are never sorted (log-time-order.ts). The scan reads the file's log times once
 * (chunks decompressed, nothing decoded) before the replay.
 */
import { open } from 'node:fs/promises';
import { type DecompressHandlers, McapIndexedReader, McapStreamReader, type McapTypes } from '@mcap/core';
import { type LogTimeOrderCounts, REORDER_WINDOW_NS } from './log-time-order.js';
import { mcapReadable } from './mcap-file.js';
import { OWN_DIAGNOSTICS_TOPIC, OWN_INPUT_TYPE, OWN_OUTPUT_TYPES } from './own-recording.js';

/** How the file is read: streamed in file order (log-time-order.ts sorts within its window), or by its index. */
export type McapReadOrder = { kind: 'stream' } | { kind: 'indexed'; counts: LogTimeOrderCounts };

type Decompress = DecompressHandlers;

/** The log times of every message, in file order; undefined when a record cannot be read. */
async function fileOrderLogTimes(path: string, decompress: Decompress): Promise<bigint[] | undefined> {
  const reader = new McapStreamReader({ validateCrcs: true, decompressHandlers: decompress });
  const times: bigint[] = [];
  const fh = await open(path, 'r');
  try {
    for await (const bytes of fh.createReadStream({ highWaterMark: 1 << 20 })) {
      reader.append(bytes as Buffer);
      for (let r = reader.nextRecord(); r; r = reader.nextRecord()) {
        if (r.type === 'Message') times.push(r.logTime);
      }
    }
  } catch {
    return undefined;
  } finally {
    await fh.close();
  }
  return reader.done() ? times : undefined;
}

/**
 * Messages stored after one with a later log time (`reordered`), and whether every one the stream's window would
 * leave late has a log time inside the recording (at most the window before its earliest in-place message).
 */
function storedOrder(times: readonly bigint[], windowNs: bigint) {
  let newest: bigint | undefined;
  let earliestInPlace: bigint | undefined;
  let reordered = 0;
  const late: bigint[] = [];
  for (const ns of times) {
    if (newest !== undefined && ns < newest) reordered += 1;
    if (newest !== undefined && ns + windowNs < newest) late.push(ns);
    else if (earliestInPlace === undefined || ns < earliestInPlace) earliestInPlace = ns;
    if (newest === undefined || ns > newest) newest = ns;
  }
  const placeable =
    earliestInPlace !== undefined && late.every((ns) => ns + windowNs >= (earliestInPlace as bigint));
  return { reordered, late: late.length, placeable };
}

async function indexedReader(path: string, decompress: Decompress) {
  const fh = await open(path, 'r');
  try {
    const readable = mcapReadable(fh);
    return { fh, reader: await McapIndexedReader.Initialize({ readable, decompressHandlers: decompress }) };
  } catch {
    await fh.close();
    return undefined;
  }
}

function isOwnRecording(reader: McapIndexedReader): boolean {
  for (const channel of reader.channelsById.values()) {
    const type = reader.schemasById.get(channel.schemaId)?.name ?? '';
    if (type === OWN_INPUT_TYPE || OWN_OUTPUT_TYPES.has(type) || channel.topic === OWN_DIAGNOSTICS_TOPIC)
      return true;
  }
  return false;
}

/** How to read `path` (see above). */
export async function mcapReadOrder(
  path: string,
  decompress: Decompress,
  windowNs: bigint = REORDER_WINDOW_NS,
): Promise<McapReadOrder> {
  const opened = await indexedReader(path, decompress);
  if (!opened) return { kind: 'stream' };
  const { fh, reader } = opened;
  await fh.close();
  if (reader.chunkIndexes.length === 0 || reader.statistics === undefined) return { kind: 'stream' };
  if (isOwnRecording(reader)) return { kind: 'stream' };
  const times = await fileOrderLogTimes(path, decompress);
  // Messages outside chunks are not in the index: the index must hold every message the file does.
  if (times === undefined || BigInt(times.length) !== reader.statistics.messageCount)
    return { kind: 'stream' };
  const order = storedOrder(times, windowNs);
  if (order.late === 0 || !order.placeable) return { kind: 'stream' };
  return { kind: 'indexed', counts: { reordered: order.reordered, late: 0 } };
}

/** The messages of `path` in log-time order through its index (equal log times in file order). */
export async function* indexedMessages(
  path: string,
  decompress: Decompress,
): AsyncGenerator<
  {
    message: McapTypes.Message;
    channels: McapIndexedReader['channelsById'];
    schemas: McapIndexedReader['schemasById'];
  },
  void,
  void
> {
  const opened = await indexedReader(path, decompress);
  if (!opened) throw new Error('the summary section cannot be read');
  const { fh, reader } = opened;
  try {
    for await (const message of reader.readMessages({ validateCrcs: true })) {
      yield { message, channels: reader.channelsById, schemas: reader.schemasById };
    }
  } finally {
    await fh.close();
  }
}
