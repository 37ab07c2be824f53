/**
 * `header.stamp` checks: the stamp is the time the data was measured (or, for a stamped command, issued). A
 * message already older than its allowed age when it is handled, or stamped further in the future than the
 * allowed clock skew, is skipped with a reason: a frame delayed in a DDS queue must not pass for fresh evidence.
 * A zero stamp (the publisher never stamped it) and a stamp more than an hour off the handler's clock (an
 * unsynchronized GPS receiver days behind, a simulation clock) cannot be aged and are named as such. The stamp
 * is compared with the handler's clock, so both must be the same clock (edge/README.md, "Clocks").
 */
import { MappingSkip } from './mapping-skip.js';
import { type RosRecord, asRecord, field, timeMs } from './ros-fields.js';

/** A stamp this far from the handler's clock is from another clock, not a late or early message. */
const FOREIGN_CLOCK_MS = 3_600_000;

export interface StampPolicy {
  /** The handler's clock, Unix ms (on replay: the message's log time). */
  nowMs: number;
  /**
   * Oldest stamp taken, ms before nowMs, and what sets it for the skip detail ("source allows", "the command is
   * held for"); undefined when age does not matter (observed types).
   */
  maxAge?: { ms: number; setBy: string };
  /** Stamps further ahead of nowMs than this are refused, ms. */
  maxFutureSkewMs: number;
  /**
   * How long after header.stamp the message's data was complete, ms (a LaserScan's last ray: scan-duration.ts);
   * default 0. Age and future skew are measured from stamp + this, and it is what is returned.
   */
  acquisitionMs?: number;
}

function durationText(ms: number): string {
  const abs = Math.abs(ms);
  if (abs >= 86_400_000) return `${(abs / 86_400_000).toFixed(1)} days`;
  if (abs >= 3_600_000) return `${(abs / 3_600_000).toFixed(1)} h`;
  return `${abs} ms`;
}

/** header.stamp → Unix ms, after the checks above. Throws MappingSkip or FieldProblem. */
export function checkedStampMs(msg: RosRecord, type: string, policy: StampPolicy): number {
  const { nowMs, maxAge, maxFutureSkewMs } = policy;
  const header = asRecord(field(msg, 'header', type), `${type}.header`);
  const headerStampMs = timeMs(header, 'stamp', `${type}.header`);
  if (headerStampMs === 0) {
    throw new MappingSkip(
      'unstamped',
      'header.stamp is zero (the publisher did not stamp it); messages without a time cannot be aged',
    );
  }
  // Whole ms, rounded down (older): frames carry integer stamps.
  const stampMs = Math.floor(headerStampMs + (policy.acquisitionMs ?? 0));
  if (Math.abs(nowMs - stampMs) > FOREIGN_CLOCK_MS) {
    throw new MappingSkip(
      'foreign-clock',
      `stamped ${new Date(stampMs).toISOString()}, ${durationText(nowMs - stampMs)} ${stampMs < nowMs ? 'before' : 'after'} the edge's clock (on replay: the log time): another clock (an unsynchronized GPS receiver, a simulation); fix the time sync, or age frames by arrival (--ignore-stamps on replay, --ros-ignore-stamps live)`,
    );
  }
  if (maxAge !== undefined && nowMs - stampMs > maxAge.ms) {
    throw new MappingSkip(
      'stale-stamp',
      `stamped ${nowMs - stampMs} ms ago, ${maxAge.setBy} ${maxAge.ms} ms`,
    );
  }
  if (stampMs - nowMs > maxFutureSkewMs) {
    throw new MappingSkip(
      'future-stamp',
      `stamped ${stampMs - nowMs} ms in the future (allowed skew ${maxFutureSkewMs} ms)`,
    );
  }
  return stampMs;
}
