/**
 * Steps of the wall clock, told from the monotonic clock: between two readings both advance by the same time
 * unless the wall clock was set (NTP stepping it, an operator, a VM resumed). The edge node stops the robot
 * on a step, since frame ages, command validity and a motion's end are all wall-clock times.
 */
import { performance } from 'node:perf_hooks';

/**
 * How far the wall clock may move apart from the monotonic clock between two monitor ticks before the node
 * calls it a step and stops the robot, ms. Far above timer jitter (both clocks see the same event-loop delay)
 * and below the usual step threshold of NTP daemons (128 ms), which slew smaller offsets instead.
 */
export const CLOCK_STEP_TOLERANCE_MS = 100;

export class WallClockSteps {
  readonly #wallMs: () => number;
  #last = { wallMs: 0, monoMs: 0 };

  constructor(wallMs: () => number) {
    this.#wallMs = wallMs;
  }

  /** Takes a reading without judging it (when the node starts). */
  mark(): void {
    this.#last = { wallMs: this.#wallMs(), monoMs: performance.now() };
  }

  /** The step since the last reading, ms (positive: forward), or undefined within the tolerance. */
  step(): number | undefined {
    const previous = this.#last;
    this.mark();
    const stepMs = this.#last.wallMs - previous.wallMs - (this.#last.monoMs - previous.monoMs);
    return Math.abs(stepMs) <= CLOCK_STEP_TOLERANCE_MS ? undefined : stepMs;
  }
}
