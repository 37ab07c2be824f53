/**
 * Times on the verifier's side. The verifier never reads the clock by itself: library functions take
 * `atMs`, and the CLI either uses `--at ISO` or reads the clock once and states that time in the report.
 */
// parsed where every package can reach them (@pentagate/protocol); re-exported, as the verifier's API had them
export { parseAtOption, parseIsoMs } from '@pentagate/protocol';

export const isoOf = (ms: number): string => new Date(ms).toISOString();

/** The `expiry`-style check of a window: notBeforeMs ≤ atMs ≤ notAfterMs. */
export function describeWindow(atMs: number, notBeforeMs: number, notAfterMs: number): string | undefined {
  if (atMs < notBeforeMs) return `not yet valid at ${isoOf(atMs)}: valid from ${isoOf(notBeforeMs)}`;
  if (atMs > notAfterMs) return `expired at ${isoOf(notAfterMs)}, checked at ${isoOf(atMs)}`;
  return undefined;
}
