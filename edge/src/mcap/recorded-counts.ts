/**
 * The message counts a bag directory's metadata.yaml records (rosbag2 `BagMetadata`: `message_count`, and
 * `topics_with_message_count[].message_count` per topic), to tell a replay that read fewer messages than were
 * recorded: a split file or rows lost (a `.db3` copied without its `-wal` file, rows deleted) leave a readable
 * recording whose summary would otherwise read as complete.
 */
import { stat } from 'node:fs/promises';
import { bagInformation } from './recording-reader.js';

export interface RecordedCounts {
  total: number;
  byTopic: Map<string, number>;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The counts of the bag directory at `path`; undefined for a single file, or metadata without counts. */
export async function recordedCounts(path: string): Promise<RecordedCounts | undefined> {
  let info: Awaited<ReturnType<typeof bagInformation>>;
  try {
    if (!(await stat(path)).isDirectory()) return undefined;
    info = await bagInformation(path);
  } catch {
    return undefined; // the reader refused the recording already, with its own message
  }
  if (info === 'absent' || info === undefined) return undefined;
  if (!isCount(info.message_count)) return undefined;
  const byTopic = new Map<string, number>();
  if (Array.isArray(info.topics_with_message_count)) {
    for (const t of info.topics_with_message_count as unknown[]) {
      const name = (t as { topic_metadata?: { name?: unknown } })?.topic_metadata?.name;
      const count = (t as { message_count?: unknown })?.message_count;
      if (typeof name === 'string' && isCount(count)) byTopic.set(name, (byTopic.get(name) ?? 0) + count);
    }
  }
  return { total: info.message_count, byTopic };
}

/**
 * What is missing from a replay against the recorded counts: undefined when every topic had at least its
 * recorded count (more is fine: a recorder that died before rewriting the metadata recorded more than it says).
 */
export function missingMessages(
  recorded: RecordedCounts,
  readTotal: number,
  readByTopic: ReadonlyMap<string, number>,
): string | undefined {
  const short: string[] = [];
  for (const [topic, count] of recorded.byTopic) {
    const read = readByTopic.get(topic) ?? 0;
    if (read < count) short.push(`${topic} ${read} of ${count}`);
  }
  if (readTotal >= recorded.total && short.length === 0) return undefined;
  return (
    `metadata.yaml records ${recorded.total} messages, ${readTotal} were read` +
    (short.length > 0 ? ` (${short.join(', ')})` : '') +
    ': messages the recorder logged are missing (a split file or rows lost, a .db3 copied without its -wal file), so the verdicts do not cover the whole recording'
  );
}
