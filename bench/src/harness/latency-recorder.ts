/**
 * A histogram for latencies timed outside measureSync/measureAsync: e.g. a publish → receive round
 * trip where the start is taken in one callback and the end in another. Take the start with
 * `nowNs()` and call `recordSince(start)` when the event arrives. ops/s is over the recorder's
 * lifetime (from creation or `restart()` to `stats()`).
 */
import { elapsedNs, nowNs } from './clock.js';
import {
  type LatencyHistogram,
  createLatencyHistogram,
  recordLatencyNs,
  statsFromHistogram,
} from './latency-histogram.js';
import type { LatencyStats } from './latency-stats.js';

export class LatencyRecorder {
  readonly name: string;
  readonly #histogram: LatencyHistogram = createLatencyHistogram();
  #startNs: bigint = nowNs();

  constructor(name: string) {
    this.name = name;
  }

  get count(): number {
    return this.#histogram.totalCount;
  }

  recordNs(latencyNs: number): void {
    recordLatencyNs(this.#histogram, latencyNs);
  }

  /** Records the time since `startNs` (a `nowNs()` reading) and returns it in ns. */
  recordSince(startNs: bigint): number {
    const latency = elapsedNs(startNs, nowNs());
    recordLatencyNs(this.#histogram, latency);
    return latency;
  }

  /** Forget everything recorded (e.g. after a warm-up) and restart the ops/s clock. */
  restart(): void {
    this.#histogram.reset();
    this.#startNs = nowNs();
  }

  stats(): LatencyStats {
    return statsFromHistogram(this.name, this.#histogram, elapsedNs(this.#startNs, nowNs()));
  }
}
