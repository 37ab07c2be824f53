/**
 * Whether the real `pentagate edge run` is available (the edge package contributes it). The
 * hardware-in-the-loop tests need it; they fail when CI=true and it is missing, and skip with a message
 * otherwise (a half-built work tree).
 */
import { type ChildProcessByStdio, spawn, spawnSync } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { Test } from 'tap';
import { PENTAGATE_BIN } from '../../src/edge/edge-process.js';

export function edgeCliAvailable(): boolean {
  const r = spawnSync(process.execPath, [PENTAGATE_BIN, 'edge', 'run', '--help'], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  return r.status === 0;
}

/** Skips (or fails on CI) a test when the edge CLI is missing; returns true when the test may run. */
export function requireEdgeCli(t: Test): boolean {
  if (edgeCliAvailable()) return true;
  const why = '`pentagate edge run` is not available (build the edge package: npm run build)';
  if (process.env.CI) t.fail(why);
  else t.skip(why, () => {});
  return false;
}

/**
 * Starts `pentagate edge <args>` (args from `edge`, e.g. `run …`) as a child process and waits until it
 * serves `robotId`; it is killed when the test ends. `exit` resolves with its exit code.
 */
export async function startEdgeChild(
  t: Test,
  args: readonly string[],
  robotId: string,
): Promise<{ edge: ChildProcessByStdio<null, Readable, Readable>; exit: Promise<number | null> }> {
  const edge = spawn(process.execPath, [PENTAGATE_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exit = new Promise<number | null>((r) => edge.on('exit', r));
  t.teardown(() => {
    if (edge.exitCode === null) edge.kill('SIGKILL');
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    edge.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (stderr.includes(`serving robot ${robotId}`)) resolve();
    });
    edge.on('exit', (code) => reject(new Error(`edge exited with ${code}: ${stderr}`)));
  });
  return { edge, exit };
}
