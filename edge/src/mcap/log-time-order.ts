/**
 * A recording's messages in log-time order, as `ros2 bag play` plays them (rosbag2's default read order is the
 * receive timestamp: `ORDER BY timestamp` in sqlite3, MCAP's LogTimeOrder in rosbag2_storage_mcap). An MCAP file
 * is written in the order the recorder's writer got the messages, which a multi-threaded recorder or a third-party
 * writer can interleave: a scan received 10 ms before an intent may be stored after it. Fed in file order, the
 * gate would judge that intent without the scan the robot had already seen (a move signed that the recorded order
 * vetoes).
 *
 * The file is streamed (no index is needed, so truncated and unindexed files replay), so messages are held for
 * `windowNs` of log time and released oldest first; a message more than the window behind the newest one seen
 * (a stale or zero log time) cannot be put back in place: it is counted (`late`) and keeps its place in the
 * file, to be replayed at the latest time seen.
 *
 * A recording whose first item `keepsFileOrder` (the edge's own, `edge run --record`) is passed through as it is:
 * its file order is the order the live gate took its inputs in, and its log time is the node's wall clock, which
 * an NTP step can set back; sorting would replay another sequence than the one decided live.
 */
import type { RecordedItem } from './rosbag-reader.js';

/** How far behind a later message a message may be stored and still be replayed in place: 1 s of log time. */
export const REORDER_WINDOW_NS = 1_000_000_000n;

export interface LogTimeOrderCounts {
  /** Messages stored after a message with a later log time, and replayed in their log-time place. */
  reordered: number;
  /** Messages stored more than the window after a later message: replayed late. */
  late: number;
}

/**
 * Yields `items` sorted by log time (stable: equal log times keep file order) within `windowNs`. When the source
 * throws (a truncated or corrupt file), everything read before it is yielded first, then the error is rethrown.
 */
export async function* inLogTimeOrder(
  items: AsyncIterable<RecordedItem>,
  counts: LogTimeOrderCounts,
  windowNs: bigint = REORDER_WINDOW_NS,
  keepsFileOrder: (first: RecordedItem) => boolean = () => false,
): AsyncGenerator<RecordedItem, void, void> {
  /**
   * Held items with the log time they are replayed at, sorted by it, from `head` on (released ones before it are
   * dropped in batches, so a high-rate recording does not move the whole window per message); insertion searches
   * from the end, where an in-order item goes.
   */
  let held: { item: RecordedItem; atNs: bigint }[] = [];
  let head = 0;
  let newestNs: bigint | undefined;
  let failed = false;
  let failure: unknown;
  let inFileOrder: boolean | undefined;
  try {
    for await (const item of items) {
      inFileOrder ??= keepsFileOrder(item);
      if (inFileOrder) {
        yield item;
        continue;
      }
      let atNs = item.logTimeNs;
      if (newestNs !== undefined && atNs + windowNs < newestNs) {
        // Beyond the window behind the newest seen (a zero or stale log time too): it cannot be put back in
        // place, so it keeps its place in the file, after the newest message seen.
        counts.late += 1;
        atNs = newestNs;
      }
      let at = held.length;
      while (at > head && held[at - 1]!.atNs > atNs) at -= 1;
      if (at < held.length) counts.reordered += 1;
      held.splice(at, 0, { item, atNs });
      if (newestNs === undefined || atNs > newestNs) newestNs = atNs;
      while (head < held.length && held[head]!.atNs + windowNs < newestNs) {
        yield held[head++]!.item;
      }
      if (head >= 1024 && head * 2 >= held.length) {
        held = held.slice(head);
        head = 0;
      }
    }
  } catch (err) {
    failed = true;
    failure = err;
  }
  // On error too: what was read before the damage is replayed before the error ends the replay.
  for (const h of held.slice(head)) yield h.item;
  if (failed) throw failure;
}
