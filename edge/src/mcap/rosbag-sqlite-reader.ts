/**
 * Reads a rosbag2 sqlite3 storage file (`.db3`, the default storage of ROS 2 up to Humble) and yields its messages
 * decoded from CDR, in the order rosbag2 itself reads them (`ORDER BY timestamp, id`).
 *
 * Schema versions, as rosbag2_storage_sqlite3's SqliteStorage writes and reads them (sqlite_storage.cpp,
 * `initialize` and `fill_topics_and_types`):
 *   - old bags: tables `topics(id, name, type, serialization_format[, offered_qos_profiles])` and
 *     `messages(id, topic_id, timestamp, data)` only, no `schema` table;
 *   - version 3 (Humble): adds `schema(schema_version, ros_distro)` and `metadata`;
 *   - version 4 (Iron and later): adds `topics.type_description_hash` and
 *     `message_definitions(topic_type, encoding, encoded_message_definition, type_description_hash)`.
 * Definitions come from `message_definitions` when it has the type in `ros2msg`, else from the bundled standard
 * definitions (edge/src/ros/ros-message-definitions.ts); a type with neither is a counted problem, never a guess.
 *
 * The file is opened read-only. A bag in WAL mode (SQLite file header bytes 18–19 = 2) would get `-wal`/`-shm`
 * files beside it even so, so such a bag is read from a private copy: reading never changes a user's bag directory.
 * The copy takes the bag's `-wal` along, named `<copy>-wal` as SQLite looks for it: rosbag2's `resilient` preset
 * records in WAL mode, and a recording interrupted before its last checkpoint holds its messages only there
 * (https://sqlite.org/wal.html). The `-shm` is not copied: it is an index SQLite rebuilds from the log.
 */
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { normalizeRosType, ros2msgSchema } from '../ros/ros-message-definitions.js';
import { TransportError } from '../transport/transport-error.js';
import { DuplicateMessages } from './duplicate-messages.js';
import { cdrTopicDecoder, storedMessage, type TopicDecoder } from './stored-message.js';
import type { ReadOptions, RecordedItem, RecordingProblemReason, WantedTopic } from './rosbag-reader.js';

interface TopicRow {
  id: bigint;
  name: string;
  type: string;
  serialization_format: string;
}

function unreadable(path: string, detail: string): TransportError {
  return new TransportError('MCAP_UNREADABLE', `recording ${path}: ${detail}`);
}

/** Whether the database file is in WAL mode (SQLite file format, header offsets 18 and 19). */
function walMode(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const header = Buffer.alloc(20);
    readSync(fd, header, 0, 20, 0);
    return header[18] === 2 || header[19] === 2;
  } finally {
    closeSync(fd);
  }
}

function open(path: string): { db: Database.Database; release(): void } {
  let copyDir: string | undefined;
  try {
    let file = path;
    if (walMode(path)) {
      copyDir = mkdtempSync(join(tmpdir(), 'pentagate-db3-'));
      file = join(copyDir, 'bag.db3');
      copyFileSync(path, file);
      if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${file}-wal`);
    }
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    const dir = copyDir;
    return {
      db,
      release() {
        db.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (copyDir) rmSync(copyDir, { recursive: true, force: true });
    const message = (err as Error).message;
    // SQLite says "malformed" for a file cut short as for one damaged inside
    const what = /malformed/i.test(message) ? 'truncated or corrupt' : 'not readable';
    throw unreadable(path, `a sqlite3 database that is ${what}: ${message}`);
  }
}

function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

function definitions(db: Database.Database): Map<string, string> {
  const out = new Map<string, string>();
  if (!hasTable(db, 'message_definitions')) return out;
  const rows = db
    .prepare('SELECT topic_type, encoding, encoded_message_definition FROM message_definitions ORDER BY id')
    .all() as { topic_type: string; encoding: string; encoded_message_definition: string }[];
  for (const r of rows) {
    if (r.encoding === 'ros2msg' && r.encoded_message_definition.trim().length > 0) {
      out.set(normalizeRosType(r.topic_type), r.encoded_message_definition);
    }
  }
  return out;
}

function topicDecoder(row: TopicRow, defs: ReadonlyMap<string, string>, wanted: WantedTopic): TopicDecoder {
  const topic = row.name;
  const type = normalizeRosType(row.type);
  if (!wanted(topic, type)) return { ok: 'unread', topic, type };
  const fail = (reason: RecordingProblemReason, detail: string): TopicDecoder => ({
    ok: false,
    topic,
    type,
    reason,
    detail: `${topic}: ${detail}`,
  });
  if (row.serialization_format !== 'cdr') {
    return fail(
      'unknown-encoding',
      `serialization format ${JSON.stringify(row.serialization_format)} is not supported (expected cdr)`,
    );
  }
  const text = defs.get(type) ?? ros2msgSchema(type);
  if (!text) {
    return fail(
      'missing-schema',
      `the bag has no definition of ${type} (no message_definitions entry) and no standard definition is bundled for it`,
    );
  }
  return cdrTopicDecoder(topic, type, text, 'definition of');
}

/** Yields every message of the `.db3` file at `path`. Throws MCAP_UNREADABLE when it is not a rosbag2 database. */
export function* readRosbagSqlite(
  path: string,
  options: ReadOptions = {},
): Generator<RecordedItem, void, void> {
  const wanted = options.wanted ?? (() => true);
  const { db, release } = open(path);
  try {
    if (!hasTable(db, 'topics') || !hasTable(db, 'messages')) {
      throw unreadable(path, 'a sqlite3 database without the rosbag2 tables topics and messages');
    }
    const defs = definitions(db);
    const topics = new Map<bigint, TopicDecoder>();
    const duplicates = new DuplicateMessages();
    const rows = db
      .prepare('SELECT id, name, type, serialization_format FROM topics ORDER BY id')
      .safeIntegers(true)
      .all() as TopicRow[];
    for (const row of rows) topics.set(row.id, topicDecoder(row, defs, wanted));
    const messages = db
      .prepare('SELECT id, topic_id, timestamp, data FROM messages ORDER BY timestamp, id')
      .safeIntegers(true);
    type MessageRow = { id: bigint; topic_id: bigint; timestamp: unknown; data: unknown };
    for (const m of messages.iterate() as Iterable<MessageRow>) {
      const logTimeNs = m.timestamp;
      // rosbag2 writes timestamp as an INTEGER of ns; SQLite's column affinity still stores a REAL or TEXT a
      // third-party writer put there, which has no log time to replay at.
      if (typeof logTimeNs !== 'bigint') {
        throw unreadable(
          path,
          `messages row id ${m.id}: timestamp ${JSON.stringify(m.timestamp)} is not an integer of nanoseconds (rosbag2 writes INTEGER ns since the epoch)`,
        );
      }
      const decoder = topics.get(m.topic_id);
      if (!decoder) {
        yield {
          kind: 'problem',
          topic: `(topic ${m.topic_id})`,
          type: '(unknown)',
          logTimeNs,
          reason: 'missing-schema',
          detail: `message on topic id ${m.topic_id}, which the bag never defines`,
        };
        continue;
      }
      if (decoder.ok === 'unread') {
        yield { kind: 'unread', topic: decoder.topic, type: decoder.type, logTimeNs };
        continue;
      }
      if (!decoder.ok) {
        const { topic, type, reason, detail } = decoder;
        yield { kind: 'problem', topic, type, logTimeNs, reason, detail };
        continue;
      }
      if (!(m.data instanceof Uint8Array)) {
        yield {
          kind: 'problem',
          topic: decoder.topic,
          type: decoder.type,
          logTimeNs,
          reason: 'decode-failed',
          detail: `${decoder.topic}: ${decoder.type} message stored as ${m.data === null ? 'NULL' : typeof m.data}, not bytes, does not decode (the data column must be a BLOB)`,
        };
        continue;
      }
      yield storedMessage(decoder, logTimeNs, m.data, duplicates);
    }
  } catch (err) {
    if (err instanceof TransportError) throw err;
    throw unreadable(path, (err as Error).message);
  } finally {
    release();
  }
}
