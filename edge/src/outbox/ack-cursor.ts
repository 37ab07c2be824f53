/**
 * The forwarding cursor: how many outbox records the cloud has acknowledged. Written atomically (temp
 * file, fsync, rename, fsync of the directory) so a crash leaves either the old or the new value, never
 * a half-written one. Forwarding is at-least-once: a crash between the sink's acknowledgement and this
 * write re-sends the batch, and the receiver deduplicates by (robotId, index).
 */
import { open, readFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { readJson } from '@pentagate/protocol';
import { EdgeRuntimeError } from '../node/runtime-error.js';

export async function readAckCursor(path: string): Promise<number> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  const value = readJson(text, { what: `outbox cursor ${path}`, maxBytes: 1024 });
  const acknowledged = (value as { acknowledged?: unknown } | null)?.acknowledged;
  if (!Number.isSafeInteger(acknowledged) || (acknowledged as number) < 0) {
    throw new EdgeRuntimeError(
      'OUTBOX_CORRUPT',
      `outbox cursor ${path}: expected {"acknowledged": <integer >= 0>}, got ${text.slice(0, 80)}`,
    );
  }
  return acknowledged as number;
}

export async function writeAckCursor(path: string, acknowledged: number): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.tmp`);
  const file = await open(tmp, 'w', 0o600);
  try {
    await file.writeFile(`${JSON.stringify({ acknowledged })}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(tmp, path);
  await syncDirectory(dirname(path));
}

/** fsync of a directory makes a rename or a new file's name durable (POSIX leaves it to the caller). */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
