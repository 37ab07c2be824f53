/**
 * Replacing a small state file so that a crash or a power loss leaves either the old or the new content,
 * never a mix: write a temporary file, fsync it, rename it over the old one, fsync the directory (POSIX
 * rename is atomic; the directory fsync makes the rename itself survive power loss). The file is 0600: it
 * is the edge's own state. Used by the sequence store and the spent consent nonces.
 */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export function replaceFileDurably(path: string, bytes: Uint8Array): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
