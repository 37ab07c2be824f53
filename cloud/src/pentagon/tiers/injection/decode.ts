/**
 * Encoded payloads: instructions smuggled as base64, hex, `\x..`/`\u....` escapes, percent-encoding or
 * HTML character references. Each candidate is decoded once (no recursion, bounded count and size) and
 * kept only if it decodes to mostly printable text, so images, keys and hashes are ignored.
 */
import { CodeUnits } from './code-units.js';

/** Most candidates decoded per field; the rest are ignored (a bound on work per call). */
export const MAX_DECODED_CANDIDATES = 16;
const MAX_CANDIDATE_CHARS = 8192;

export interface DecodedPayload {
  encoding: 'base64' | 'hex' | 'escapes' | 'percent' | 'html-entities';
  text: string;
}

function printableShare(text: string): number {
  if (text.length === 0) return 0;
  let ok = 0;
  // Code points, counted as they are read (not spread into an array to be counted).
  let total = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    // U+FFFD is what the decoder put where the bytes were not UTF-8: binary, not text
    if ((c >= 0x20 && c < 0x7f) || c === 0x0a || c === 0x0d || c === 0x09 || (c >= 0xa0 && c !== 0xfffd))
      ok++;
    total++;
  }
  return ok / total;
}

/** One decoder for every candidate: decoding without `stream` keeps no state between calls. */
const UTF8 = new TextDecoder('utf-8', { fatal: false });

function utf8(bytes: Buffer): string | undefined {
  const text = UTF8.decode(bytes);
  // Mostly printable and containing at least two words: a sentence, not binary.
  return printableShare(text) >= 0.9 && /[A-Za-z\p{L}]{2,}[^A-Za-z\p{L}]+[A-Za-z\p{L}]{2,}/u.test(text)
    ? text
    : undefined;
}

/**
 * The encoded runs looked for. BASE64 and HEX are found by `eachBase64Match` and `eachHexMatch` (below),
 * which visit the matches these patterns would, in one pass over a typed copy instead of a regular
 * expression tried at every letter; the patterns stay as their definition (the tests compare the two).
 */
export const BASE64 = /[A-Za-z0-9+/_-]{20,}={0,2}/g;
export const HEX = /(?:[0-9a-fA-F]{2}){12,}/g;
const ESCAPES = /(?:\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}){6,}/g;
const PERCENT = /(?:%[0-9a-fA-F]{2}[^%\s]{0,3}){6,}/g;
const HTML_ENTITIES = /(?:&#(?:x[0-9a-fA-F]{1,6}|[0-9]{1,7});[^&\s]{0,3}){6,}/g;

/** BASE64's class [A-Za-z0-9+/_-] as a table by ASCII code (1: in the class). */
const BASE64_UNITS = Uint8Array.from({ length: 0x80 }, (_, c) =>
  /[A-Za-z0-9+/_-]/.test(String.fromCharCode(c)) ? 1 : 0,
);
/** HEX's digits [0-9a-fA-F] as a table by ASCII code. */
const HEX_UNITS = Uint8Array.from({ length: 0x80 }, (_, c) =>
  /[0-9a-fA-F]/.test(String.fromCharCode(c)) ? 1 : 0,
);
const EQUALS = 0x3d;

const rawUnits = new CodeUnits();

/**
 * Where the first run of 20 characters of BASE64's class [A-Za-z0-9+/_-] starts in `raw` (−1: none). No BASE64 or HEX
 * match starts before it: each is such a run (hex digits are in the class, and HEX needs 24), and a run
 * starting earlier would have reached 20 characters earlier.
 */
export function firstBase64Run(raw: string): number {
  const units = rawUnits.of(raw);
  let run = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = units[i]!;
    // A run grows by one or falls to 0 by arithmetic: a branch here was mispredicted at every word edge.
    run = (run + 1) * (c < 0x80 ? BASE64_UNITS[c]! : 0);
    if (run >= 20) return i - 19;
  }
  return -1;
}

/** The end of the run of `table`'s units that starts at `i` in `units[0, n)`. */
function runEnd(units: Uint16Array, n: number, i: number, table: Uint8Array): number {
  let j = i;
  while (j < n && units[j]! < 0x80 && table[units[j]!] === 1) j++;
  return j;
}

/**
 * Calls `visit(start, end, units)` for each maximal run of `table`'s units in `raw` from `from` (`units`:
 * the typed copy of `raw`), until it returns false.
 */
function eachRun(
  raw: string,
  from: number,
  table: Uint8Array,
  visit: (start: number, end: number, units: Uint16Array) => boolean,
): void {
  const units = rawUnits.of(raw);
  const n = raw.length;
  for (let i = from; i < n; ) {
    const c = units[i]!;
    if (c >= 0x80 || table[c] === 0) {
      i++;
      continue;
    }
    const end = runEnd(units, n, i, table);
    if (!visit(i, end, units)) return;
    i = end;
  }
}

/**
 * Calls `visit(start, end)` for each match BASE64 finds in `raw` from `from`, in order, until it returns
 * false. A match of `[class]{20,}={0,2}` starts only where a run of the class starts (from inside a run
 * the run's start was tried first and would have matched), takes the whole run (greedy, and the class has
 * no `=`), then up to two `=`; a run shorter than 20 holds no match. The next search starts at the end.
 */
export function eachBase64Match(
  raw: string,
  from: number,
  visit: (start: number, end: number) => boolean,
): void {
  eachRun(raw, from, BASE64_UNITS, (start, runStop, units) => {
    if (runStop - start < 20) return true;
    let end = runStop;
    if (end < raw.length && units[end] === EQUALS) end++;
    if (end < raw.length && units[end] === EQUALS) end++;
    return visit(start, end);
  });
}

/**
 * Calls `visit(start, end)` for each match HEX finds in `raw` from `from`, in order, until it returns
 * false. `(?:[0-9a-fA-F]{2}){12,}` matches where a run of hex digits of 24 or more starts, and takes its
 * pairs (an odd last digit stays out, and one digit cannot start a match); a shorter run holds none.
 */
export function eachHexMatch(
  raw: string,
  from: number,
  visit: (start: number, end: number) => boolean,
): void {
  eachRun(raw, from, HEX_UNITS, (start, runStop) => {
    const length = runStop - start;
    return length < 24 || visit(start, start + length - (length % 2));
  });
}

function decodeEscapes(s: string): string {
  return s.replace(
    /\\x([0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})/g,
    (_m, x: string | undefined, u: string | undefined) => String.fromCharCode(Number.parseInt((x ?? u)!, 16)),
  );
}

function decodeHtmlEntities(s: string): string {
  return s.replace(/&#(x[0-9a-fA-F]{1,6}|[0-9]{1,7});/g, (_m, n: string) => {
    const cp = n.startsWith('x') ? Number.parseInt(n.slice(1), 16) : Number.parseInt(n, 10);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
  });
}

/** Finds and decodes encoded runs in `raw` (the original text, before normalisation). */
export function decodePayloads(raw: string): DecodedPayload[] {
  const out: DecodedPayload[] = [];
  const push = (encoding: DecodedPayload['encoding'], text: string | undefined) => {
    if (text !== undefined && out.length < MAX_DECODED_CANDIDATES) out.push({ encoding, text });
  };
  // The shortest text any pattern matches is 18 characters (six `%xx`); most fields are shorter.
  if (raw.length < 18) return out;
  // exec() over the shared global patterns rather than matchAll(), which clones the pattern per call;
  // no pattern matches the empty string, so the loop visits the same matches as matchAll would.
  const each = (re: RegExp, fn: (m: string) => void, from = 0) => {
    re.lastIndex = from;
    for (let m = re.exec(raw); m !== null; m = re.exec(raw)) {
      if (out.length >= MAX_DECODED_CANDIDATES) break;
      fn(m[0].slice(0, MAX_CANDIDATE_CHARS));
    }
    re.lastIndex = 0;
  };
  // Both need a run of 20+ base64 characters (hex digits are among them, and hex needs 24): one linear
  // pass rules them out for most text, where the patterns would be tried at every letter of every word.
  // Both are searched from where that run starts.
  const run = firstBase64Run(raw);
  if (run >= 0) {
    eachBase64Match(raw, run, (start, end) => {
      if (out.length >= MAX_DECODED_CANDIDATES) return false;
      const m = raw.slice(start, Math.min(end, start + MAX_CANDIDATE_CHARS));
      // Pure hex is also valid base64; leave it to the hex pass.
      if (!/^[0-9a-fA-F]+$/.test(m)) {
        push('base64', utf8(Buffer.from(m.replace(/-/g, '+').replace(/_/g, '/'), 'base64')));
      }
      return true;
    });
    eachHexMatch(raw, run, (start, end) => {
      if (out.length >= MAX_DECODED_CANDIDATES) return false;
      push('hex', utf8(Buffer.from(raw.slice(start, Math.min(end, start + MAX_CANDIDATE_CHARS)), 'hex')));
      return true;
    });
  }
  // Each of these needs its marker character; skip the scan when the text has none.
  if (raw.includes('\\')) each(ESCAPES, (m) => push('escapes', decodeEscapes(m)));
  if (raw.includes('%'))
    each(PERCENT, (m) => {
      try {
        push('percent', decodeURIComponent(m));
      } catch {
        // Malformed percent-encoding is not a payload.
      }
    });
  if (raw.includes('&#')) each(HTML_ENTITIES, (m) => push('html-entities', decodeHtmlEntities(m)));
  return out;
}
