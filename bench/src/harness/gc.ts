/**
 * A full garbage collection between measurements, so one measurement does not pay for the garbage
 * of the previous one. `global.gc` exists only with `--expose-gc`; the root `npm run bench` script
 * runs plain `node`, so the flag is switched on at run time and `gc` is fetched from a fresh context
 * (V8 installs it in contexts created after the flag is set).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let cached: (() => void) | null | undefined;

function findGc(): (() => void) | null {
  const existing = (globalThis as { gc?: unknown }).gc;
  if (typeof existing === 'function') return existing as () => void;
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

/** Runs a full GC; returns false when no GC hook is available (the measurement still runs). */
export function collectGarbage(): boolean {
  if (cached === undefined) cached = findGc();
  if (cached === null) return false;
  cached();
  return true;
}
