/**
 * Writes ROS 2 messages to MCAP the way rosbag2 does: profile `ros2`, one `ros2msg` schema per type (the text of
 * the bundled standard definitions), CDR-encoded messages (@foxglove/rosmsg2-serialization), plus JSON channels
 * with a JSON Schema for Pentagate's own records. Foxglove Studio opens the result beside the robot's bags.
 */
import { parse as parseMsgDefinition } from '@foxglove/rosmsg';
import { MessageWriter } from '@foxglove/rosmsg2-serialization';
import { type IWritable, McapWriter } from '@mcap/core';
import { normalizeRosType, ros2msgSchema } from '../ros/ros-message-definitions.js';
import { TransportError } from '../transport/transport-error.js';

interface Channel {
  id: number;
  encode(message: unknown): Uint8Array;
}

export interface RosbagWriterOptions {
  writable: IWritable;
  /** Chunked (default true) like rosbag2; false writes every record unchunked. */
  useChunks?: boolean;
  /** Bytes of messages after which a chunk is closed (default @mcap/core's, 1 MiB; rosbag2's is 768 KiB). */
  chunkSize?: number;
  /** Compresses each chunk (e.g. LZ4 frames, compression `lz4`); default uncompressed. */
  compressChunk?: (data: Uint8Array) => { compression: string; compressedData: Uint8Array };
}

export class RosbagWriter {
  readonly #writer: McapWriter;
  readonly #schemaIds = new Map<string, number>();
  readonly #channels = new Map<string, Channel>();
  readonly #sequences = new Map<number, number>();

  private constructor(writer: McapWriter) {
    this.#writer = writer;
  }

  static async open(options: RosbagWriterOptions): Promise<RosbagWriter> {
    const writer = new McapWriter({
      writable: options.writable,
      useChunks: options.useChunks ?? true,
      ...(options.chunkSize !== undefined ? { chunkSize: options.chunkSize } : {}),
      ...(options.compressChunk ? { compressChunk: options.compressChunk } : {}),
    });
    await writer.start({ profile: 'ros2', library: 'pentagate-edge' });
    return new RosbagWriter(writer);
  }

  async #schema(name: string, encoding: string, data: string): Promise<number> {
    const key = `${encoding}:${name}`;
    let id = this.#schemaIds.get(key);
    if (id === undefined) {
      id = await this.#writer.registerSchema({ name, encoding, data: new TextEncoder().encode(data) });
      this.#schemaIds.set(key, id);
    }
    return id;
  }

  /** A CDR channel for a standard ROS 2 type (one of the bundled definitions). */
  async rosChannel(topic: string, rosType: string): Promise<void> {
    if (this.#channels.has(topic)) return;
    const type = normalizeRosType(rosType);
    const text = ros2msgSchema(type);
    if (!text) throw new TransportError('MCAP_WRITE_FAILED', `no bundled definition for ${type}`);
    const schemaId = await this.#schema(type, 'ros2msg', text);
    const id = await this.#writer.registerChannel({
      topic,
      schemaId,
      messageEncoding: 'cdr',
      metadata: new Map(),
    });
    const writer = new MessageWriter(parseMsgDefinition(text, { ros2: true }));
    this.#channels.set(topic, { id, encode: (m) => writer.writeMessage(m) });
  }

  /** A JSON channel whose messages conform to `jsonSchema` (a JSON Schema object; TypeBox schemas are). */
  async jsonChannel(topic: string, schemaName: string, jsonSchema: unknown): Promise<void> {
    if (this.#channels.has(topic)) return;
    const schemaId = await this.#schema(schemaName, 'jsonschema', JSON.stringify(jsonSchema));
    const id = await this.#writer.registerChannel({
      topic,
      schemaId,
      messageEncoding: 'json',
      metadata: new Map(),
    });
    const encoder = new TextEncoder();
    this.#channels.set(topic, { id, encode: (m) => encoder.encode(JSON.stringify(m)) });
  }

  /** Writes a message on a registered channel; times are Unix ms (MCAP stores ns). */
  async write(topic: string, message: unknown, logTimeMs: number, publishTimeMs = logTimeMs): Promise<void> {
    const channel = this.#channels.get(topic);
    if (!channel)
      throw new TransportError('MCAP_WRITE_FAILED', `topic ${topic} has no channel; register it first`);
    const sequence = (this.#sequences.get(channel.id) ?? 0) + 1;
    this.#sequences.set(channel.id, sequence);
    await this.#writer.addMessage({
      channelId: channel.id,
      sequence,
      logTime: BigInt(Math.round(logTimeMs)) * 1_000_000n,
      publishTime: BigInt(Math.round(publishTimeMs)) * 1_000_000n,
      data: channel.encode(message),
    });
  }

  /** Writes the summary and footer. */
  async end(): Promise<void> {
    await this.#writer.end();
  }
}
