/**
 * A proximity sensor (a safety lidar) that reports the distance to the nearest person: it samples at `rateHz`,
 * adds Gaussian noise, delivers each reading `latencyMs` after it was taken, loses readings with probability
 * `dropoutProbability`, sees nobody beyond `rangeM`, and can be put into a fault for a time window:
 *
 * - `dropout`: no frames at all (a cable pulled);
 * - `stale`: the last frame is sent again, same seq (a frozen driver) — the edge refuses it as out of order,
 *   so its data ages past `maxAgeMs`;
 * - `nan`: the distance is NaN (a broken range computation) — on the wire that is the bare token `NaN`, which
 *   is not JSON, so the edge refuses the frame.
 */
import type { ProximityFrame } from '@pentagate/protocol';
import type { SeededRandom } from './random.js';

export type SensorFault = 'dropout' | 'stale' | 'nan';

export interface ProximitySensorOptions {
  robotId: string;
  source: string;
  rateHz: number;
  noiseSigmaM: number;
  latencyMs: number;
  dropoutProbability: number;
  rangeM: number;
  /** Seq of the first frame (default 1): a sensor that keeps talking to the same edge continues its count. */
  firstSeq?: number;
}

export interface PendingFrame {
  deliverAtMs: number;
  frame: ProximityFrame;
}

export class ProximitySensor {
  readonly options: ProximitySensorOptions;
  readonly #rng: SeededRandom;
  #seq = 0;
  #nextSampleMs: number | undefined;
  #last: ProximityFrame | undefined;
  #queue: PendingFrame[] = [];
  #fault: SensorFault | undefined;
  /** Readings lost to random dropouts (not counting fault windows). */
  droppedReadings = 0;

  constructor(options: ProximitySensorOptions, rng: SeededRandom) {
    this.options = options;
    this.#rng = rng;
    this.#seq = (options.firstSeq ?? 1) - 1;
  }

  /** The seq of the last frame taken (firstSeq − 1 before the first). */
  get lastSeq(): number {
    return this.#seq;
  }

  get periodMs(): number {
    return 1000 / this.options.rateHz;
  }

  setFault(fault: SensorFault | undefined): void {
    this.#fault = fault;
  }

  get fault(): SensorFault | undefined {
    return this.#fault;
  }

  /**
   * Samples when a period has passed (`trueDistanceM` is the ground truth, null when nobody is around) and
   * returns the frames whose latency has elapsed by `nowMs`, in order.
   */
  step(nowMs: number, trueDistanceM: number | null): ProximityFrame[] {
    this.#nextSampleMs ??= nowMs;
    while (nowMs >= this.#nextSampleMs) {
      this.#sample(this.#nextSampleMs, trueDistanceM);
      this.#nextSampleMs += this.periodMs;
    }
    const due = this.#queue.filter((p) => p.deliverAtMs <= nowMs);
    this.#queue = this.#queue.filter((p) => p.deliverAtMs > nowMs);
    return due.map((p) => p.frame);
  }

  #sample(atMs: number, trueDistanceM: number | null): void {
    if (this.#fault === 'dropout') return;
    if (this.#fault === 'stale') {
      if (this.#last) this.#queue.push({ deliverAtMs: atMs + this.options.latencyMs, frame: this.#last });
      return;
    }
    if (this.#rng.next() < this.options.dropoutProbability) {
      this.droppedReadings++;
      return;
    }
    let distance: number | null = null;
    if (trueDistanceM !== null && trueDistanceM <= this.options.rangeM) {
      distance = Math.max(0, trueDistanceM + this.#rng.gaussian(this.options.noiseSigmaM));
    }
    if (this.#fault === 'nan') distance = Number.NaN;
    const frame: ProximityFrame = {
      v: 1,
      robotId: this.options.robotId,
      source: this.options.source,
      seq: ++this.#seq,
      stampMs: Math.round(atMs),
      kind: 'proximity',
      nearestHumanM:
        distance === null ? null : Number.isNaN(distance) ? distance : Math.round(distance * 1000) / 1000,
    };
    this.#last = frame;
    this.#queue.push({ deliverAtMs: atMs + this.options.latencyMs, frame });
  }
}
