/**
 * Times on the verifier's side. The verifier never reads the clock by itself: library functions take
 * `atMs`, and the CLI either uses `--at ISO` or reads the clock once and states that time in the report.
 */
import { InvalidInputError, UsageError } from '@pentagate/protocol';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 timestamp to Unix ms, or returns undefined when it is not one. */
export function parseIsoMs(text: string): number | undefined {
  if (!RFC3339.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

/** A timestamp inside an artifact; a bad one is unreadable input. */
export function isoToMs(text: string, what: string): number {
  const ms = parseIsoMs(text);
  if (ms === undefined) {
    throw new InvalidInputError(`${what}: expected an RFC 3339 timestamp, got ${JSON.stringify(text)}`);
  }
  return ms;
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
