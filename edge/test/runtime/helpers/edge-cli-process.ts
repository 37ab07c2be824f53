/**
 * The real `pentagate edge run` CLI as a child process (bin/pentagate.js over the built packages): started,
 * waited for until its stderr says it serves, and stopped with SIGTERM (SIGKILL at teardown if still alive).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export const PENTAGATE_BIN = join(import.meta.dirname, '../../../../bin/pentagate.js');

export interface EdgeCliProcess {
  child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export async function startEdgeCli(
  t: { teardown(fn: () => unknown): void },
  args: readonly string[],
  ready: RegExp = /pentagate edge run: serving robot/,
): Promise<EdgeCliProcess> {
  const child = spawn(process.execPath, [PENTAGATE_BIN, 'edge', 'run', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const exited = new Promise<number | null>((r) => child.on('exit', r));
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (ready.test(stderr)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`edge run exited with ${code}: ${stderr}`)));
  });
  return {
    child,
    stderr: () => stderr,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
