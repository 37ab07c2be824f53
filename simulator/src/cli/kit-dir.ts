/**
 * `demo --kit-dir DIR` is checked before the demo starts: the kit is exported into it only at the end, and
 * `cloud audit export` refuses a directory that holds files, so a full one would fail the run after all of it.
 */
import { readdir } from 'node:fs/promises';
import { UsageError, cannotRead } from '@pentagate/protocol';

export async function checkKitDir(dir: string): Promise<void> {
  let present: string[];
  try {
    present = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // created at the end
    throw new UsageError(`--kit-dir: ${cannotRead(dir, err)}`);
  }
  if (present.length > 0) {
    throw new UsageError(
      `--kit-dir: expected an empty or new directory, got ${dir} holding ${present.length} file(s)`,
    );
  }
}
