/**
 * The part of `EdgeGate` (edge/src/trap/) the node drives. The node depends on this shape, not on the
 * class, so it can be wired to the real gate or, in a benchmark, to an instrumented one.
 */
import type { MotorCommand, VerdictEvent } from '@pentagate/protocol';
import type { TelemetryOutcome, TrapResult } from '../trap/trap-result.js';

export interface EdgeGatePort {
  ingestTelemetry(frame: unknown, arrivalMs?: number): TelemetryOutcome;
  trapAndSign(intent: unknown, nowMs?: number): TrapResult;
  submitConsent(envelope: unknown, nowMs?: number): TrapResult;
  expireConsents(nowMs?: number): TrapResult[];
  protectiveStop(reason: string, nowMs?: number): MotorCommand;
  /** Re-checks the motion in progress without new telemetry (catches a source that went silent). */
  monitor(nowMs?: number): { stop: MotorCommand; verdict: VerdictEvent } | undefined;
}
