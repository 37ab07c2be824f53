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

/**
 * Whether `text` may hold a Cyrillic or Greek letter: a code unit at or above U+0370 of that class, or
 * any surrogate (the supplementary planes hold a few). Without one no word mixes the scripts, and most
 * text (Latin scripts, CJK) is answered in one comparison or one table read per unit.
 */
function mayHoldCyrillicOrGreek(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < FIRST_CYRILLIC_OR_GREEK) continue;
    if (c >= 0xd800 && c <= 0xdfff) return true;
    if ((classOf(c) & CYRILLIC_OR_GREEK) !== 0) return true;
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
