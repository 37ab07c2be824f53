/**
 * A telemetry frame arriving at the edge (ARCHITECTURE.md §4 continuous monitoring): what the gate answers
 * once the TelemetryStore has taken or refused it. A refused frame is a `rejected-input` verdict naming the
 * refusal; when it withdrew its source's latest frame (a seq discontinuity, an unusable frame on the topic),
 * the motion in progress was re-checked at once, and a failed re-check answers with the STOP instead.
 */
import { edgeViolation } from '@pentagate/protocol';
import { type IngestResult, TELEMETRY_REFUSAL_CODES } from '../telemetry/telemetry-store.js';
import type { MotionStop, TelemetryOutcome } from './trap-result.js';
import { verdict } from './verdicts.js';

/** The outcome of an ingested frame; `stopped`: the re-check's STOP, when it failed. */
export function telemetryOutcome(
  robotId: string,
  ingested: IngestResult,
  arrivalMs: number,
  stopped: MotionStop | undefined,
): TelemetryOutcome {
  const stop = stopped ? { stop: stopped.stop, verdict: stopped.verdict } : {};
  if (ingested.accepted) {
    const ignored = ingested.newlyIgnoredJoints;
    return { accepted: true, ...(ignored ? { newlyIgnoredJoints: ignored } : {}), ...stop };
  }
  const reason = `${ingested.reason}: ${ingested.detail}`;
  if (stopped) return { accepted: false, reason, ...stop };
  return {
    accepted: false,
    reason,
    verdict: verdict({
      robotId,
      outcome: 'rejected-input',
      atMs: arrivalMs,
      violations: [edgeViolation(TELEMETRY_REFUSAL_CODES[ingested.reason], ingested.detail)],
    }),
  };
}
