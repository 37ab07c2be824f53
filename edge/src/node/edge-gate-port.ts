/**
 * The part of `EdgeGate` (edge/src/trap/) the node drives. The node depends on this shape, not on the
 * class, so it can be wired to the real gate or, in a benchmark, to an instrumented one.
 */
import type { MotorCommand } from '@pentagate/protocol';
import type { MotionStop, TelemetryOutcome, TrapResult } from '../trap/trap-result.js';

export interface EdgeGatePort {
  /** `topicSource`: the source whose topic carried the frame (an unusable frame withdraws its data). */
  ingestTelemetry(frame: unknown, arrivalMs?: number, topicSource?: string): TelemetryOutcome;
  /** A message on `topicSource`'s telemetry topic that is not JSON: withdraws its data; a STOP if a motion ran. */
  unreadableTelemetry(topicSource: string, arrivalMs?: number): MotionStop | undefined;
  trapAndSign(intent: unknown, nowMs?: number): TrapResult;
  submitConsent(envelope: unknown, nowMs?: number): TrapResult;
  expireConsents(nowMs?: number): TrapResult[];
  protectiveStop(reason: string, nowMs?: number): MotorCommand;
  /** Re-checks the motion in progress without new telemetry (catches a source that went silent). */
  monitor(nowMs?: number): MotionStop | undefined;
}
