/**
 * Writes rosbag2 sqlite3 storage files (`.db3`) with better-sqlite3, in the exact table layout
 * rosbag2_storage_sqlite3's SqliteStorage creates (sqlite_storage.cpp, `SqliteStorage::initialize`, github.com/
 * ros2/rosbag2): schema version 3 (Humble: schema, metadata, topics with offered_qos_profiles, messages) or 4
 * (Iron and later: topics.type_description_hash and message_definitions), messages in CDR from
 * @foxglove/rosmsg2-serialization, `INSERT INTO messages (timestamp, topic_id, data)` as SqliteStorage writes them.
 * Not a test file itself.
 */
import { parse as parseMsgDefinition } from '@foxglove/rosmsg';
import { MessageWriter } from '@foxglove/rosmsg2-serialization';
import Database from 'better-sqlite3';
import { normalizeRosType, ros2msgSchema } from '../../../src/ros/ros-message-definitions.js';

const SENSOR_QOS =
  '- history: 3\n  depth: 0\n  reliability: 2\n  durability: 2\n  deadline:\n    sec: 9223372036\n    nsec: 854775807\n  lifespan:\n    sec: 9223372036\n    nsec: 854775807\n  liveliness: 1\n  liveliness_lease_duration:\n    sec: 9223372036\n    nsec: 854775807\n  avoid_ros_namespace_conventions: false';

export interface Db3WriterOptions {
  /** 3 (Humble, no message_definitions) or 4 (with them). Default 3. */
  schemaVersion?: 3 | 4;
  /** Schema 4 only: write the message_definitions rows (default true). */
  withDefinitions?: boolean;
  /**
   * Write-ahead log without checkpoints, as rosbag2's `resilient` storage preset leaves a bag (PRAGMA
   * journal_mode=WAL): committed messages stay in `<file>-wal` until a checkpoint, which `commit()` never runs.
   */
  wal?: boolean;
}

export class Db3Writer {
  readonly #db: Database.Database;
  readonly #version: 3 | 4;
  readonly #withDefinitions: boolean;
  readonly #topics = new Map<string, { id: number; writer: MessageWriter }>();
  readonly #insert: Database.Statement;

  constructor(path: string, options: Db3WriterOptions = {}) {
    this.#version = options.schemaVersion ?? 3;
    this.#withDefinitions = options.withDefinitions ?? true;
    this.#db = new Database(path);
    if (options.wal) {
      this.#db.pragma('journal_mode = WAL');
      this.#db.pragma('wal_autocheckpoint = 0');
    }
    const hash = this.#version >= 4 ? ',type_description_hash TEXT NOT NULL' : '';
    this.#db.exec(`
      CREATE TABLE schema(schema_version INTEGER PRIMARY KEY,ros_distro TEXT NOT NULL);
      CREATE TABLE metadata(id INTEGER PRIMARY KEY,metadata_version INTEGER NOT NULL,metadata TEXT NOT NULL);
      CREATE TABLE topics(id INTEGER PRIMARY KEY,name TEXT NOT NULL,type TEXT NOT NULL,serialization_format TEXT NOT NULL,offered_qos_profiles TEXT NOT NULL${hash});
      ${this.#version >= 4 ? 'CREATE TABLE message_definitions(id INTEGER PRIMARY KEY,topic_type TEXT NOT NULL,encoding TEXT NOT NULL,encoded_message_definition TEXT NOT NULL,type_description_hash TEXT NOT NULL);' : ''}
      CREATE TABLE messages(id INTEGER PRIMARY KEY,topic_id INTEGER NOT NULL,timestamp INTEGER NOT NULL, data BLOB NOT NULL);
      CREATE INDEX timestamp_idx ON messages (timestamp ASC);
    `);
    this.#db
      .prepare('INSERT INTO schema (schema_version, ros_distro) VALUES (?, ?)')
      .run(this.#version, this.#version >= 4 ? 'jazzy' : 'humble');
    this.#insert = this.#db.prepare('INSERT INTO messages (timestamp, topic_id, data) VALUES (?, ?, ?)');
    this.#db.exec('BEGIN TRANSACTION');
  }

  /**
   * A topic of a standard type. `definitionText` is what the message_definitions row says (default the bundled
   * definition, which the messages are always written with): a third-party writer's spelling of the same layout.
   */
  async rosChannel(
    topic: string,
    rosType: string,
    serializationFormat = 'cdr',
    definitionText?: string,
  ): Promise<void> {
    if (this.#topics.has(topic)) return;
    const type = normalizeRosType(rosType);
    const text = ros2msgSchema(type);
    if (!text) throw new Error(`no bundled definition for ${type}`);
    const info =
      this.#version >= 4
        ? this.#db
            .prepare(
              'INSERT INTO topics(name, type, serialization_format, offered_qos_profiles, type_description_hash) VALUES (?, ?, ?, ?, ?)',
            )
            .run(topic, type, serializationFormat, SENSOR_QOS, '')
        : this.#db
            .prepare(
              'INSERT INTO topics(name, type, serialization_format, offered_qos_profiles) VALUES (?, ?, ?, ?)',
            )
            .run(topic, type, serializationFormat, SENSOR_QOS);
    if (this.#version >= 4 && this.#withDefinitions) {
      this.#db
        .prepare(
          'INSERT INTO message_definitions (topic_type, encoding, encoded_message_definition, type_description_hash) VALUES (?, ?, ?, ?)',
        )
        .run(type, 'ros2msg', definitionText ?? text, '');
    }
    this.#topics.set(topic, {
      id: Number(info.lastInsertRowid),
      writer: new MessageWriter(parseMsgDefinition(text, { ros2: true })),
    });
  }

  async write(topic: string, message: unknown, logTimeMs: number): Promise<void> {
    const t = this.#topics.get(topic);
    if (!t) throw new Error(`topic ${topic} has no channel`);
    this.#insert.run(
      BigInt(Math.round(logTimeMs)) * 1_000_000n,
      t.id,
      Buffer.from(t.writer.writeMessage(message)),
    );
  }

  /** Writes a message's stored bytes as they are (compressed, another encapsulation, damaged). */
  writeRaw(topic: string, data: Uint8Array, logTimeMs: number): void {
    const t = this.#topics.get(topic);
    if (!t) throw new Error(`topic ${topic} has no channel`);
    this.#insert.run(BigInt(Math.round(logTimeMs)) * 1_000_000n, t.id, Buffer.from(data));
  }

  /** Encodes a message of `topic`'s type as CDR, without writing it. */
  encode(topic: string, message: unknown): Uint8Array {
    const t = this.#topics.get(topic);
    if (!t) throw new Error(`topic ${topic} has no channel`);
    return t.writer.writeMessage(message);
  }

  /** Commits what was written and keeps the connection (and, in WAL mode, the uncheckpointed `-wal`) open. */
  commit(): void {
    this.#db.exec('COMMIT');
  }

  /** Closes the connection; the last one in WAL mode checkpoints the log into the file and deletes it. */
  close(): void {
    this.#db.close();
  }

  async finish(): Promise<void> {
    this.commit();
    this.close();
  }
}
