/**
 * An MCAP `IWritable` on a file: appends through one file handle, tracks the position the writer needs for its
 * summary offsets, and syncs on close so a finished recording survives a power cut.
 */
import { type FileHandle, open } from 'node:fs/promises';
import type { IWritable } from '@mcap/core';
import { TransportError } from '../transport/transport-error.js';

export class McapFileSink implements IWritable {
  readonly path: string;
  readonly #file: FileHandle;
  #position = 0n;

  private constructor(path: string, file: FileHandle) {
    this.path = path;
    this.#file = file;
  }

  /** Creates `path`; refuses to overwrite an existing file (a recording is evidence). */
  static async create(path: string): Promise<McapFileSink> {
    try {
      return new McapFileSink(path, await open(path, 'wx', 0o644));
    } catch (err) {
      throw new TransportError(
        'MCAP_WRITE_FAILED',
        `cannot create recording ${path}: ${(err as Error).message}`,
      );
    }
  }

  async write(buffer: Uint8Array): Promise<void> {
    await this.#file.write(buffer);
    this.#position += BigInt(buffer.byteLength);
  }

  position(): bigint {
    return this.#position;
  }

  async close(): Promise<void> {
    await this.#file.sync();
    await this.#file.close();
  }
}
