/**
 * Where `sim run --report` may write, checked before the scenarios run: a new file in an existing directory, or
 * an earlier report (re-running with the same --report is the usual loop). Anything else is the user's and is
 * not replaced; a mistyped path is said at once, not after minutes of scenarios.
 */
import { open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UsageError } from '@pentagate/protocol';
import { REPORT_TITLE } from './html-report.js';

/** How far into an earlier report its <title> is: the doctype and the <html><head><meta> line before it. */
const HEAD_BYTES = 512;

export async function checkReportTarget(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) {
    const dir = dirname(path);
    if (!(await stat(dir).catch(() => undefined))?.isDirectory()) {
      throw new UsageError(`--report: the directory ${dir} does not exist`);
    }
    return;
  }
  if (info.isFile()) {
    const handle = await open(path, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
      if (buffer.subarray(0, bytesRead).toString('utf8').includes(`<title>${REPORT_TITLE}</title>`)) return;
    } finally {
      await handle.close();
    }
  }
  throw new UsageError(
    `--report: ${path} exists and is not a Pentagate simulator report; refusing to overwrite it (choose another path)`,
  );
}
