/**
 * The lead-in before a scenario's clock starts: the robot publishes telemetry for a moment, then asks for one
 * harmless move — hold the current position (a zero twist for a base) — and waits for its verdict.
 *
 * Why: a fresh `pentagate edge run` pays for its first signed command on the spot (it reserves a block of
 * command seqs with synchronous fsyncs — FileSequenceStore.next() on a fresh store — and its gate code runs
 * cold). On a loaded 2-core machine, with the profile's 50 ms joint-state maxAgeMs, the edge then found the
 * joint states 51–135 ms old, stopped the scenario's first motion, and published that motion's signed
 * command (and its "signed" verdict) after the STOP, with the pre-STOP epoch, so the controller refused it
 * as stale-epoch (reported as an edge issue; reproduce with `sim run --timing-floor 0 --no-lead-in`). A real
 * robot also streams telemetry before it is asked to move. `sim run --no-lead-in` runs without it, to see
 * the edge's first-command behaviour.
 *
 * The lead-in's intent has its own id; its verdicts never reach the trace, and its command goes straight to
 * the controller, not through the attacker's wire.
 */
import type { Intent, VerdictEvent } from '@pentagate/protocol';
import type { ArmModel } from '../models/arm-model.js';
import { planIntent } from './planner.js';

export const LEAD_IN_INTENT_ID = 'sim-lead-in-hold';
/** Telemetry before the lead-in intent, ms (a few periods of every source, and a warm JIT). */
export const LEAD_IN_TELEMETRY_MS = 200;
/** Give up waiting for the lead-in verdict after this long and start anyway, ms. */
export const LEAD_IN_MAX_MS = 3000;
/** How long the hold lasts; the scenario starts after it ended, so no lead-in motion is still running. */
const HOLD_MS = 100;

export class LeadIn {
  readonly #robotId: string;
  readonly #arm: ArmModel | undefined;
  #sent = false;
  /** When the first verdict for the lead-in intent arrived (wall ms). */
  #answeredAtMs: number | undefined;

  constructor(robotId: string, arm: ArmModel | undefined) {
    this.#robotId = robotId;
    this.#arm = arm;
  }

  get sent(): boolean {
    return this.#sent;
  }

  /** The hold-position intent (call once; marks it sent). */
  intent(): Intent {
    this.#sent = true;
    const id = LEAD_IN_INTENT_ID;
    return this.#arm
      ? planIntent(
          { id, kind: 'joint', to: this.#arm.state.positionsRad, durationMs: HOLD_MS, points: 1 },
          this.#robotId,
          this.#arm,
        )
      : planIntent(
          { id, kind: 'twist', linearMps: 0, angularRadS: 0, durationMs: HOLD_MS },
          this.#robotId,
          undefined,
        );
  }

  /** True for verdicts about the lead-in intent (to be left out of the trace); notes the first one. */
  owns(verdict: VerdictEvent, nowMs = Date.now()): boolean {
    if (verdict.intentId !== LEAD_IN_INTENT_ID) return false;
    this.#answeredAtMs ??= nowMs;
    return true;
  }

  /** The lead-in is over once its intent was answered and a signed hold has run its course. */
  done(nowMs: number): boolean {
    return this.#answeredAtMs !== undefined && nowMs - this.#answeredAtMs >= HOLD_MS + 50;
  }
}
