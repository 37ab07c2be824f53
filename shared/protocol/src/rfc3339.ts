/**
 * RFC 3339 timestamps (`2025-06-01T12:00:00Z`, `…+02:00`) as Unix ms: the verifier's `--at`, the cloud's
 * `keys retire --at`, the edge's `--expires`/`--issued`/`--not-before`, and the times in signed statements. Date.parse alone would roll 2025-02-31 over into
 * March; a day past the end of its month is refused instead.
 */
import { UsageError } from './errors.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** Unix ms of an RFC 3339 timestamp, or undefined when `text` is not one. */
export function parseIsoMs(text: string): number | undefined {
  if (!RFC3339.test(text)) return undefined;
  const ms = Date.parse(text);
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return Number.isFinite(ms) && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth ? ms : undefined;
}

/** A time option (`--at`, `--expires`, …) on the command line: an RFC 3339 timestamp; a bad one is a usage error. */
export function parseTimeOption(text: string, option: string): number {
  const ms = parseIsoMs(text);
  if (ms === undefined) {
    throw new UsageError(
      `--${option}: expected an RFC 3339 timestamp such as 2025-06-01T12:00:00Z, got ${JSON.stringify(text)}`,
    );
  }
  return ms;
}

/** `--at ISO` on the command line; a bad one is a usage error. */
export function parseAtOption(text: string): number {
  return parseTimeOption(text, 'at');
}
