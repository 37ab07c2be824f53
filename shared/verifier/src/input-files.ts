/**
 * Reading the files an auditor hands to `pentagate verify`: bounded in size before a byte is read, and
 * every failure (missing file, directory, too big, not UTF-8, not JSON) an InvalidInputError that names
 * the file and what was expected, so the CLI exits 2 with one line and never a stack trace.
 */
import { open } from 'node:fs/promises';
import { InvalidInputError, readJson } from '@pentagate/protocol';

/** Largest input file the verifier reads (16 MiB); bigger files are refused as unreadable input. */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory, expected a file';
    default:
      return code ?? String((err as Error | undefined)?.message ?? err);
  }
}

/** Reads a whole regular file of at most `maxBytes` bytes. `what` names it in errors ("proof packet"). */
export async function readInputBytes(
  path: string,
  what: string,
  maxBytes: number = MAX_INPUT_BYTES,
): Promise<Uint8Array> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw new InvalidInputError(`${what} ${path}: cannot read it (${describeFsError(err)})`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new InvalidInputError(`${what} ${path}: expected a regular file`);
    if (info.size > maxBytes) {
      throw new InvalidInputError(`${what} ${path}: expected at most ${maxBytes} bytes, got ${info.size}`);
    }
    // Room for one byte more than stat said, so a file that grew between stat and read is noticed.
    const buffer = Buffer.alloc(info.size + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) {
        throw new InvalidInputError(`${what} ${path}: the file changed while it was read`);
      }
    }
    return new Uint8Array(buffer.subarray(0, length));
  } catch (err) {
    if (err instanceof InvalidInputError) throw err;
    throw new InvalidInputError(`${what} ${path}: cannot read it (${describeFsError(err)})`);
  } finally {
    await handle.close();
  }
}

/** Decodes bytes as strict UTF-8 (a file that is not text is unreadable input, not a verdict). */
export function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new InvalidInputError(`${what}: expected UTF-8 text, got bytes that are not valid UTF-8`);
  }
}

export async function readInputText(path: string, what: string): Promise<string> {
  return decodeUtf8(await readInputBytes(path, what), `${what} ${path}`);
}

/** Parses the bytes read from `path` as JSON, naming the file in any error. */
export function parseInputJson(bytes: Uint8Array, path: string, what: string): unknown {
  return readJson(bytes, { what: `${what} ${path}`, maxBytes: MAX_INPUT_BYTES });
}

export async function readInputJson(path: string, what: string): Promise<unknown> {
  return parseInputJson(await readInputBytes(path, what), path, what);
}
