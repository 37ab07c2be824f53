/**
 * One stored message as replay sees it, the same for the MCAP and the sqlite3 (.db3) readers: a counted copy of
 * the message before it, the decoded message, or why it does not decode.
 */
import type { DecodedMessage } from './cdr-message.js';
import { type DuplicateMessages, duplicateDetail } from './duplicate-messages.js';
import type { RecordedItem, RecordingProblemReason } from './rosbag-reader.js';

/** How a topic's messages are read: decoded, left unread (no gate reads the type), or refused with the reason. */
export type TopicDecoder =
  | { ok: true; topic: string; type: string; decode(data: Uint8Array): DecodedMessage }
  | { ok: 'unread'; topic: string; type: string }
  | { ok: false; topic: string; type: string; reason: RecordingProblemReason; detail: string };

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
