/** The SuiteContext handed to each suite: quick scaling, stderr logging and CPU pinning. */
import { pinToOneCore, type CpuPinning } from './cpu-pinning.js';
import { measureAsync, measureSync, type MeasureOptions } from './measure.js';
import type { SuiteContext } from './suite.js';

/** Under `--quick` every count is divided by this. */
export const QUICK_DIVISOR = 50;

export function quickOptions(options: MeasureOptions): MeasureOptions {
  const iterations = Math.max(10, Math.ceil((options.iterations ?? 10_000) / QUICK_DIVISOR));
  const warmupIterations = Math.max(2, Math.ceil((options.warmupIterations ?? iterations) / QUICK_DIVISOR));
  return { iterations, warmupIterations, minTimeMs: 0 };
}

export interface ContextSettings {
  quick: boolean;
  /** false: pinToOneCore is a no-op (`--no-pin`). */
  pin: boolean;
  cpu?: number;
  log(message: string): void;
}

/** A context plus `release()`, which undoes any pinning the suite left in place. */
export function createSuiteContext(settings: ContextSettings): { ctx: SuiteContext; release(): void } {
  const pins: CpuPinning[] = [];
  const scale = (o: MeasureOptions = {}): MeasureOptions => (settings.quick ? quickOptions(o) : o);
  const ctx: SuiteContext = {
    quick: settings.quick,
    log: settings.log,
    measureSync: (name, fn, options) => measureSync(name, fn, scale(options)),
    measureAsync: (name, fn, options) => measureAsync(name, fn, scale(options)),
    size: (full, quick) => (settings.quick ? (quick ?? Math.max(1, Math.floor(full / QUICK_DIVISOR))) : full),
    pinToOneCore() {
      const pinning: CpuPinning = settings.pin
        ? pinToOneCore(settings.cpu)
        : { pinned: false, how: 'not pinned: --no-pin', restore: () => {} };
      pins.push(pinning);
      return pinning;
    },
  };
  return {
    ctx,
    release() {
      // Restore in reverse so the first saved CPU list wins.
      for (const pin of pins.reverse()) pin.restore();
    },
  };
}
