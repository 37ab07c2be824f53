/**
 * One stored message as replay sees it, the same for the MCAP and the sqlite3 (.db3) readers: a counted copy of
 * the message before it, the decoded message, or why it does not decode.
 */
import { standardDefinitionProblem } from '../ros/standard-definition.js';
import { type DecodedMessage, decodeCdrMessage, ros2msgReader } from './cdr-message.js';
import { type DuplicateMessages, duplicateDetail } from './duplicate-messages.js';
import type { RecordedItem, RecordingProblemReason } from './rosbag-reader.js';

/** How a topic's messages are read: decoded, left unread (no gate reads the type), or refused with the reason. */
export type TopicDecoder =
  | { ok: true; topic: string; type: string; decode(data: Uint8Array): DecodedMessage }
  | { ok: 'unread'; topic: string; type: string }
  | { ok: false; topic: string; type: string; reason: RecordingProblemReason; detail: string };

/**
 * The decoder of `topic`'s messages from the definition `text` its recording gives for `type` (both readers): a
 * text that does not parse, or that re-labels a standard type's fields (standard-definition.ts), is refused.
 */
export function cdrTopicDecoder(
  topic: string,
  type: string,
  text: string,
  /** How its refusal names the text: an MCAP `schema`, a sqlite3 bag's message `definition of` the type. */
  called: 'schema' | 'definition of',
): TopicDecoder {
  const fail = (detail: string): TopicDecoder => ({
    ok: false,
    topic,
    type,
    reason: 'bad-schema',
    detail: `${topic}: ${detail}`,
  });
  let reader: ReturnType<typeof ros2msgReader>;
  try {
    reader = ros2msgReader(text);
  } catch (err) {
    return fail(`${called} ${type} does not parse: ${(err as Error).message}`);
  }
  const relabelled = standardDefinitionProblem(type, text);
  if (relabelled) return fail(`the recording's definition of ${type} is not the standard one: ${relabelled}`);
  const what = `${topic}: ${type} message`;
  return { ok: true, topic, type, decode: (data) => decodeCdrMessage(reader, data, what) };
}

export function storedMessage(
  decoder: Extract<TopicDecoder, { ok: true }>,
  logTimeNs: bigint,
  data: Uint8Array,
  duplicates: DuplicateMessages,
): RecordedItem {
  const { topic, type } = decoder;
  if (duplicates.isCopy(topic, logTimeNs, data)) {
    return {
      kind: 'problem',
      topic,
      type,
      logTimeNs,
      reason: 'duplicate-message',
      detail: duplicateDetail(topic, type, logTimeNs),
    };
  }
  const decoded = decoder.decode(data);
  return decoded.ok
    ? { kind: 'message', topic, type, logTimeNs, message: decoded.message }
    : { kind: 'problem', topic, type, logTimeNs, reason: decoded.reason, detail: decoded.detail };
}
