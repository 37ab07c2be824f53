/**
 * Whether the real `pentagate edge run` is available (the edge package contributes it). The
 * hardware-in-the-loop tests need it; they fail when CI=true and it is missing, and skip with a message
 * otherwise (a half-built work tree).
 */
import { spawnSync } from 'node:child_process';
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
