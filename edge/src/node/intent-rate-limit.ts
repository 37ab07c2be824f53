/**
 * A token bucket over the intents a node takes from its transports. A planner account that publishes intents
 * faster than any planner needs (an outside review saw ~600 a second, each a 40-point trajectory the gates
 * vetoed) made one ~7.6 KB audit record per veto: the robot's outbox and the cloud's shared audit log grew
 * by over 100 MB a minute, and a later STOP's record reached the cloud's live view minutes late behind the
 * backlog. Over the limit an intent is not judged: it is refused (`INPUT.INTENT_RATE_LIMITED`) through the
 * per-window refusal summary, so a flood costs one outbox record per window.
 *
 * Fail-safe: refusing an intent never moves the robot; the motion in progress stays monitored, and STOPs,
 * telemetry, consent and the watchdog do not pass through the bucket.
 *
 * The defaults: a planner sends one trajectory per move (a few a second at most, many points each), and
 * streaming setpoints (a servo loop, ROS `cmd_vel` from teleop or Nav2's controller) run at 10–50 Hz, one
 * intent per message. 50 a second sustained takes the fastest of those streams as it is; a burst of 100 (two
 * seconds' worth) absorbs what a broker reconnect or a planner's replanning loop delivers at once. At the
 * limit a veto flood is 50 records a second, not 600, and the summary takes the rest.
 */
import { performance } from 'node:perf_hooks';

/** Intents a second a node takes from its transports unless told otherwise. */
export const DEFAULT_MAX_INTENTS_PER_SECOND = 50;

/** Largest value `--max-intents-per-second` takes; far above what a planner needs or the gates are for. */
export const MAX_INTENTS_PER_SECOND_LIMIT = 10_000;

/** The bucket holds this many seconds of the rate (default 100 at 50 a second). */
export const INTENT_BURST_SECONDS = 2;

export interface IntentRateLimitOptions {
  /** Tokens added per second; 0 or absent = DEFAULT_MAX_INTENTS_PER_SECOND. */
  perSecond?: number;
  /** Bucket size; default INTENT_BURST_SECONDS × perSecond (at least 1). */
  burst?: number;
  /** Monotonic milliseconds (default performance.now: a step of the wall clock neither fills nor drains it). */
  clock?: () => number;
}

export class IntentRateLimit {
  readonly perSecond: number;
  readonly burst: number;
  readonly #clock: () => number;
  #tokens: number;
  #lastMs: number;

  constructor(options: IntentRateLimitOptions = {}) {
    const perSecond = options.perSecond || DEFAULT_MAX_INTENTS_PER_SECOND;
    if (!Number.isFinite(perSecond) || perSecond < 0)
      throw new RangeError(`intent rate limit: expected a positive rate, got ${perSecond}`);
    const burst = options.burst ?? Math.max(1, Math.ceil(perSecond * INTENT_BURST_SECONDS));
    if (!Number.isFinite(burst) || burst < 1)
      throw new RangeError(`intent rate limit: expected a burst of at least 1, got ${burst}`);
    this.perSecond = perSecond;
    this.burst = burst;
    this.#clock = options.clock ?? (() => performance.now());
    this.#tokens = burst;
    this.#lastMs = this.#clock();
  }

  /** Takes one token: true when the intent may be judged, false when it is over the limit. */
  take(): boolean {
    const nowMs = this.#clock();
    // a clock that went back (it should not: it is monotonic) adds nothing
    const elapsedMs = Math.max(0, nowMs - this.#lastMs);
    this.#lastMs = nowMs;
    this.#tokens = Math.min(this.burst, this.#tokens + (elapsedMs * this.perSecond) / 1000);
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  /** Whole tokens available now (for tests and logs). */
  available(): number {
    const elapsedMs = Math.max(0, this.#clock() - this.#lastMs);
    return Math.floor(Math.min(this.burst, this.#tokens + (elapsedMs * this.perSecond) / 1000));
  }
}
