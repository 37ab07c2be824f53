/**
 * Times on the verifier's side. The verifier never reads the clock by itself: library functions take
 * `atMs`, and the CLI either uses `--at ISO` or reads the clock once and states that time in the report.
 */
import { UsageError } from '@pentagate/protocol';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * Parses an RFC 3339 timestamp to Unix ms, or returns undefined when it is not one. Date.parse alone
 * would roll 2025-02-31 over into March; a day past the end of its month is refused instead.
 */
export function parseIsoMs(text: string): number | undefined {
  if (!RFC3339.test(text)) return undefined;
  const ms = Date.parse(text);
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return Number.isFinite(ms) && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth ? ms : undefined;
}

/** `--at ISO` on the command line; a bad one is a usage error. */
export function parseAtOption(text: string): number {
  const ms = parseIsoMs(text);
  if (ms === undefined) {
    throw new UsageError(
      `--at: expected an RFC 3339 timestamp such as 2025-06-01T12:00:00Z, got ${JSON.stringify(text)}`,
    );
  }
  return ms;
}

export const isoOf = (ms: number): string => new Date(ms).toISOString();

/** The `expiry`-style check of a window: notBeforeMs ≤ atMs ≤ notAfterMs. */
export function describeWindow(atMs: number, notBeforeMs: number, notAfterMs: number): string | undefined {
  if (atMs < notBeforeMs) return `not yet valid at ${isoOf(atMs)}: valid from ${isoOf(notBeforeMs)}`;
  if (atMs > notAfterMs) return `expired at ${isoOf(notAfterMs)}, checked at ${isoOf(atMs)}`;
  return undefined;
}
