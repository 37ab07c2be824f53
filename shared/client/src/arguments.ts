/**
 * What a caller hands GovClient, checked for callers without a type checker (plain JavaScript, values read
 * at run time). Specification §7: GovError is the base class of all client errors, so a wrong option or
 * argument is a ValidationFailedError (status 0, nothing sent) that names it and says what was expected and
 * what came — not a TypeError from inside the client, a time-out that never waited, or the server's 400
 * about another value than the one passed.
 */
import { ValidationFailedError } from './errors.js';

/** setTimeout's longest delay (2^31 − 1 ms); Node and browsers fire a longer one at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** A value as messages show it: a string quoted (its first 40 characters), a number as written, else its kind. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' ? JSON.stringify(v.slice(0, 40)) : typeof v;
}

export function isRecord(v: unknown): v is object {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function optionsError(message: string): ValidationFailedError {
  return new ValidationFailedError('INVALID_OPTIONS', message, 0);
}

export function argumentError(message: string): ValidationFailedError {
  return new ValidationFailedError('INVALID_ARGUMENT', message, 0);
}

/** A numeric option: undefined (its default) or a finite number in [min, MAX_TIMER_MS]. */
export function timerOption(name: string, v: unknown, min: number): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > MAX_TIMER_MS)
    throw optionsError(`${name}: expected a number of ms from ${min} to ${MAX_TIMER_MS}, got ${describe(v)}`);
}

export function retriesOption(v: unknown): void {
  if (v !== undefined && !(Number.isInteger(v) && (v as number) >= 0))
    throw optionsError(`maxRetries: expected an integer >= 0, got ${describe(v)}`);
}

/** The option as a message may show it: a user name or password in it is never repeated. */
function shownUrl(text: string): string {
  return JSON.stringify(text.replace(/^([^:/?#]*:\/\/)[^/?#]*@/, '$1…@'));
}

/**
 * `baseUrl` (specification §2.1: "string (URL)", the tenant's address), read with the URL parser fetch uses:
 * whatever that parser takes as an http(s) URL is accepted, the scheme in any case (RFC 3986 §3.1), and
 * returned as it will be requested; what fetch could not request fails here, not as a NetworkError on
 * every call. The paths are appended to it, so a query or a fragment (which would swallow them) is refused.
 */
export function baseUrlOption(v: unknown): string {
  const expected = 'baseUrl: expected an http(s) URL string without a query or fragment';
  if (typeof v !== 'string') throw optionsError(`${expected}, got ${describe(v)}`);
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw optionsError(`${expected}, got ${shownUrl(v)}, which is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw optionsError(`${expected}, got ${shownUrl(v)}`);
  if (url.username !== '' || url.password !== '') {
    // fetch refuses to build a request from such a URL; the tenant's credential is the apiKey
    throw optionsError(
      'baseUrl: expected no user name or password in it (the key goes in apiKey), got a URL with them',
    );
  }
  if (/[?#]/.test(url.href)) throw optionsError(`${expected}, got ${shownUrl(v)}`);
  return url.href;
}

/** execute's and replay's proposalId (§2.1: "execute input: proposalId (string)"). */
export function proposalIdArgument(v: unknown): string {
  if (typeof v !== 'string') throw argumentError(`proposalId: expected a string, got ${describe(v)}`);
  return v;
}

/** An audit query's `from` / `to`: Unix ms or a valid Date, as query text. */
export function instantArgument(name: string, v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (v instanceof Date) {
    if (!Number.isNaN(v.getTime())) return String(v.getTime());
    throw argumentError(`${name}: expected Unix ms or a Date, got an invalid Date`);
  }
  throw argumentError(`${name}: expected Unix ms or a Date, got ${describe(v)}`);
}

/** A call's `signal`: undefined or an AbortSignal (duck-typed: signals of another realm count too). */
export function signalArgument(v: unknown): void {
  const signal = v as { aborted?: unknown; addEventListener?: unknown } | null;
  if (
    v !== undefined &&
    !(
      typeof v === 'object' &&
      v !== null &&
      typeof signal?.aborted === 'boolean' &&
      typeof signal.addEventListener === 'function'
    )
  )
    throw argumentError(`signal: expected an AbortSignal, got ${describe(v)}`);
}
