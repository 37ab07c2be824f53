/**
 * Counts the words of a text that mix Latin letters with Cyrillic or Greek ones, the look-alike-letter
 * disguise (`іgnore` with a Cyrillic і; Unicode TR39 §5 "mixed-script confusables").
 *
 * The count is exactly the number of matches of
 *   /(?=[^\s]*\p{Script=Latin})(?=[^\s]*[\p{Script=Cyrillic}\p{Script=Greek}])[\p{L}\p{M}]{2,}/gu
 * (a run of two or more letters or marks from whose start both scripts are reachable without crossing a
 * blank), but in one pass. The regular expression re-scans the rest of the blank-free run at every
 * position, which is quadratic in text without blanks (Chinese, Japanese, base64): 1 KiB of such text
 * took milliseconds. Here each blank-free run is scanned twice (where does each script last occur, then
 * where do letter runs start), so the cost is linear.
 */

const LETTER = 1;
const BLANK = 2;
const LATIN = 4;
const CYRILLIC_OR_GREEK = 8;
const KNOWN = 16;

const LETTER_RE = /^[\p{L}\p{M}]$/u;
const BLANK_RE = /^\s$/u;
const LATIN_RE = /^\p{Script=Latin}$/u;
const CYRILLIC_OR_GREEK_RE = /^[\p{Script=Cyrillic}\p{Script=Greek}]$/u;

/** Classes of the Basic Multilingual Plane, filled on first sight of each code point. */
const bmpClasses = new Uint8Array(0x10000);

function classify(cp: number): number {
  const ch = String.fromCodePoint(cp);
  return (
    KNOWN |
    (LETTER_RE.test(ch) ? LETTER : 0) |
    (BLANK_RE.test(ch) ? BLANK : 0) |
    (LATIN_RE.test(ch) ? LATIN : 0) |
    (CYRILLIC_OR_GREEK_RE.test(ch) ? CYRILLIC_OR_GREEK : 0)
  );
}

function classOf(cp: number): number {
  if (cp < 0x80) {
    // ASCII: letters are Latin, the blanks are \t \n \v \f \r and space; nothing is Cyrillic or Greek.
    if ((cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a)) return KNOWN | LETTER | LATIN;
    return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d) ? KNOWN | BLANK : KNOWN;
  }
  if (cp > 0xffff) return classify(cp);
  let c = bmpClasses[cp]!;
  if (c === 0) {
    c = classify(cp);
    bmpClasses[cp] = c;
  }
  return c;
}

/** The first Cyrillic or Greek code point (U+0370); test/pentagon/injection-fast-paths.test.ts checks it. */
export const FIRST_CYRILLIC_OR_GREEK = 0x370;

/** Ranges of Cyrillic and Greek code points closer than this are searched for as one. */
const MERGED_GAP = 256;

/** `\uXXXX`, a code unit as a regular expression writes it. */
function unitEscape(unit: number): string {
  return `\\u${unit.toString(16).padStart(4, '0')}`;
}

/**
 * A class of code units holding every Cyrillic and Greek code point of the Basic Multilingual Plane (all
 * at or above U+0370) and every surrogate, in a few ranges: the exact ranges (39 in Node 20) merged
 * where at most MERGED_GAP apart, so that a search reads a KiB in a sixth of the time the exact class
 * takes. Without the `u` flag the class matches code units, lone surrogates too.
 */
function mayBeCyrillicOrGreekUnits(): RegExp {
  const ranges: [number, number][] = [];
  for (let cp = FIRST_CYRILLIC_OR_GREEK; cp < 0x10000; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (!CYRILLIC_OR_GREEK_RE.test(String.fromCharCode(cp))) continue;
    const last = ranges[ranges.length - 1];
    if (last !== undefined && cp - last[1] <= MERGED_GAP) last[1] = cp;
    else ranges.push([cp, cp]);
  }
  ranges.push([0xd800, 0xdfff]);
  return new RegExp(`[${ranges.map(([a, b]) => `${unitEscape(a)}-${unitEscape(b)}`).join('')}]`, 'g');
}
const MAY_BE_CYRILLIC_OR_GREEK = mayBeCyrillicOrGreekUnits();

/**
 * Whether `text` may hold a Cyrillic or Greek letter: a code unit at or above U+0370 of that class, or
 * any surrogate (the supplementary planes hold a few). Without one no word mixes the scripts, and most
 * text (Latin scripts, CJK) is answered by one search of a class of units, which V8's compiled pattern
 * runs in a quarter of the time of a loop over `charCodeAt`; each unit it finds is then classified.
 */
function mayHoldCyrillicOrGreek(text: string): boolean {
  const search = MAY_BE_CYRILLIC_OR_GREEK;
  search.lastIndex = 0;
  // The class matches one unit, so each match ends at lastIndex.
  while (search.test(text)) {
    const c = text.charCodeAt(search.lastIndex - 1);
    if ((c >= 0xd800 && c <= 0xdfff) || (classOf(c) & CYRILLIC_OR_GREEK) !== 0) {
      search.lastIndex = 0;
      return true;
    }
  }
  return false;
}

export function countMixedScriptWords(text: string): number {
  if (!mayHoldCyrillicOrGreek(text)) return 0;
  let count = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    // Skip blanks to the start of a blank-free run.
    const cp = text.codePointAt(i)!;
    if ((classOf(cp) & BLANK) !== 0) {
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    let lastLatin = -1;
    let lastOther = -1;
    let end = i;
    while (end < n) {
      const c = text.codePointAt(end)!;
      const k = classOf(c);
      if ((k & BLANK) !== 0) break;
      if ((k & LATIN) !== 0) lastLatin = end;
      if ((k & CYRILLIC_OR_GREEK) !== 0) lastOther = end;
      end += c > 0xffff ? 2 : 1;
    }
    if (lastLatin >= 0 && lastOther >= 0)
      count += lettersRunsReaching(text, start, end, lastLatin, lastOther);
    i = end;
  }
  return count;
}

/**
 * Letter runs of at least two code points in [start, end) that start at or before both `lastLatin` and
 * `lastOther` (so both scripts lie ahead of them within the blank-free run).
 */
function lettersRunsReaching(
  text: string,
  start: number,
  end: number,
  lastLatin: number,
  lastOther: number,
): number {
  const reach = Math.min(lastLatin, lastOther);
  let count = 0;
  let i = start;
  while (i < end && i <= reach) {
    const c = text.codePointAt(i)!;
    if ((classOf(c) & LETTER) === 0) {
      i += c > 0xffff ? 2 : 1;
      continue;
    }
    const runStart = i;
    let length = 0;
    while (i < end) {
      const d = text.codePointAt(i)!;
      if ((classOf(d) & LETTER) === 0) break;
      length++;
      i += d > 0xffff ? 2 : 1;
    }
    if (length >= 2 && runStart <= reach) count++;
  }
  return count;
}
