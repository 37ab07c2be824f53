/**
 * Encoded payloads: instructions smuggled as base64, hex, `\x..`/`\u....` escapes, percent-encoding or
 * HTML character references, hex written as spaced bytes (spaced-hex.ts), base32. A base64 or hex
 * candidate is read through up to three layers of encoding or compression (decode-layers.ts); every
 * candidate is kept only if it decodes to mostly printable text, so images, keys and hashes are ignored.
 * Count and size are bounded.
 */
import { CodeUnits } from './code-units.js';
import { base32Bytes, base64Bytes, isBase32Token, textOfLayers } from './decode-layers.js';
import { eachSpacedHexRun } from './spaced-hex.js';

/** Most candidates decoded per field; the rest are ignored (a bound on work per call). */
export const MAX_DECODED_CANDIDATES = 16;
const MAX_CANDIDATE_CHARS = 8192;

export interface DecodedPayload {
  encoding: 'base64' | 'base32' | 'hex' | 'escapes' | 'percent' | 'html-entities' | 'reversed';
  text: string;
}

/**
 * The encoded runs looked for. BASE64 and HEX are found by `readEncodedRuns` (below), which lists the
 * matches these patterns would find, both in one pass over a typed copy instead of a regular expression
 * tried at every letter; the patterns stay as their definition (the tests compare the two).
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
export const HEX_UNITS = Uint8Array.from({ length: 0x80 }, (_, c) =>
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
 * The BASE64 and HEX matches of the text last read by `readEncodedRuns`, as [start, end) pairs in order
 * (reused arrays: decoding is synchronous).
 */
class MatchList {
  bounds = new Int32Array(64);
  length = 0;

  push(start: number, end: number): void {
    if (2 * this.length + 2 > this.bounds.length) {
      const grown = new Int32Array(2 * this.bounds.length);
      grown.set(this.bounds);
      this.bounds = grown;
    }
    this.bounds[2 * this.length] = start;
    this.bounds[2 * this.length + 1] = end;
    this.length++;
  }
}
const base64Matches = new MatchList();
const hexMatches = new MatchList();

/**
 * Lists in `base64Matches` and `hexMatches` what BASE64 and HEX find in `raw` from `from`, in one pass over
 * the runs of BASE64's class [A-Za-z0-9+/_-]. A BASE64 match starts only where such a run starts (from
 * inside a run the run's start was tried first and would have matched), takes the whole run (greedy, and
 * the class has no `=`), then up to two `=`; a run shorter than 20 holds none. HEX, `(?:[0-9a-fA-F]{2}){12,}`,
 * matches where a run of hex digits of 24 or more starts and takes its pairs (an odd last digit stays out,
 * and one digit cannot start a match). Hex digits are in BASE64's class and the units that end its runs
 * are not hex digits, so every run of hex digits lies inside one run of the class, of 24 units or more:
 * the hex runs are looked for there only, instead of in a second pass over the text.
 */
function readEncodedRuns(raw: string, from: number): void {
  base64Matches.length = 0;
  hexMatches.length = 0;
  const units = rawUnits.of(raw);
  const n = raw.length;
  for (let i = from; i < n; ) {
    const c = units[i]!;
    if (c >= 0x80 || BASE64_UNITS[c] === 0) {
      i++;
      continue;
    }
    const runStop = runEnd(units, n, i, BASE64_UNITS);
    if (runStop - i >= 20) {
      let end = runStop;
      if (end < n && units[end] === EQUALS) end++;
      if (end < n && units[end] === EQUALS) end++;
      base64Matches.push(i, end);
    }
    if (runStop - i >= 24) {
      for (let j = i; j < runStop; ) {
        if (HEX_UNITS[units[j]!] === 0) {
          j++;
          continue;
        }
        const hexStop = runEnd(units, runStop, j, HEX_UNITS);
        const length = hexStop - j;
        if (length >= 24) hexMatches.push(j, j + length - (length % 2));
        j = hexStop;
      }
    }
    i = runStop;
  }
}

/** Calls `visit(start, end)` for each match in `list`, in order, until it returns false. */
function eachMatch(list: MatchList, visit: (start: number, end: number) => boolean): void {
  for (let k = 0; k < list.length; k++) {
    if (!visit(list.bounds[2 * k]!, list.bounds[2 * k + 1]!)) return;
  }
}

/** Calls `visit(start, end)` for each match BASE64 finds in `raw` from `from`, in order, until it returns
 * false (one pass: readEncodedRuns). */
export function eachBase64Match(
  raw: string,
  from: number,
  visit: (start: number, end: number) => boolean,
): void {
  readEncodedRuns(raw, from);
  eachMatch(base64Matches, visit);
}

/** Calls `visit(start, end)` for each match HEX finds in `raw` from `from`, in order, until it returns
 * false (one pass: readEncodedRuns). */
export function eachHexMatch(
  raw: string,
  from: number,
  visit: (start: number, end: number) => boolean,
): void {
  readEncodedRuns(raw, from);
  eachMatch(hexMatches, visit);
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
    // One pass lists both kinds of match; base64 candidates are decoded first, then hex.
    readEncodedRuns(raw, run);
    eachMatch(base64Matches, (start, end) => {
      if (out.length >= MAX_DECODED_CANDIDATES) return false;
      const m = raw.slice(start, Math.min(end, start + MAX_CANDIDATE_CHARS));
      // Pure hex is also valid base64; leave it to the hex pass.
      if (!/^[0-9a-fA-F]+$/.test(m)) {
        const text = textOfLayers(base64Bytes(m));
        if (text !== undefined) push('base64', text);
        // base32's alphabet is inside base64's: a run of it that is no base64 text may be base32
        else if (isBase32Token(m)) push('base32', textOfLayers(base32Bytes(m) ?? Buffer.alloc(0)));
      }
      return true;
    });
    eachMatch(hexMatches, (start, end) => {
      if (out.length >= MAX_DECODED_CANDIDATES) return false;
      push(
        'hex',
        textOfLayers(Buffer.from(raw.slice(start, Math.min(end, start + MAX_CANDIDATE_CHARS)), 'hex')),
      );
      return true;
    });
  }
  // Spaced hex needs a pair, a separator and eleven more: at least 35 characters.
  if (raw.length >= 35)
    eachSpacedHexRun(raw, (bytes) => {
      if (out.length >= MAX_DECODED_CANDIDATES) return false;
      push('hex', textOfLayers(bytes.subarray(0, MAX_CANDIDATE_CHARS)));
      return true;
    });
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
