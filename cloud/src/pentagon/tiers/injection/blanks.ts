/**
 * Blank collapsing for the plain view, in one pass over the text. It computes exactly
 *   text.replace(/[ \t\f\v\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+/g, ' ')
 *       .replace(/ ?(?:\r\n|\r|\n|\u2028|\u2029)[\s]* /g, '\n')   (without the space before the slash)
 *       .trim()
 * — runs of horizontal blanks become one space, a line break with the blanks around it becomes one
 * '\n' — which took a quarter of the normalisation time as three passes that each build a string.
 * A text that needs no change is returned as it is; otherwise unchanged stretches are copied as slices.
 */

/** Horizontal blanks other than the space (with it, the first pattern's class), and line breaks, as
 * the insides of regular-expression classes. */
const OTHER_HORIZONTAL_BLANKS = '\\t\\f\\v\\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000';
const LINE_BREAKS = '\\n\\r\\u2028\\u2029';

const HORIZONTAL = 1;
const LINE_BREAK = 2;
/** Each code unit's kind (0: neither); every blank and break lies at or below U+3000. */
const BLANK_KINDS = ((): Uint8Array => {
  const horizontal = new RegExp(`[ ${OTHER_HORIZONTAL_BLANKS}]`);
  const lineBreak = new RegExp(`[${LINE_BREAKS}]`);
  return Uint8Array.from({ length: 0x3001 }, (_, c) => {
    const unit = String.fromCharCode(c);
    return horizontal.test(unit) ? HORIZONTAL : lineBreak.test(unit) ? LINE_BREAK : 0;
  });
})();

function isHorizontalBlank(c: number): boolean {
  return c <= 0x3000 && BLANK_KINDS[c] === HORIZONTAL;
}

function isLineBreak(c: number): boolean {
  return c <= 0x3000 && BLANK_KINDS[c] === LINE_BREAK;
}

/** ECMAScript WhiteSpace and LineTerminator: the `\s` class (ECMA-262 §22.2.2.9, CharacterClassEscape). */
function isBlank(c: number): boolean {
  return isHorizontalBlank(c) || isLineBreak(c) || c === 0xfeff;
}

/**
 * Where a change can start: a line break, a horizontal blank other than a space, or a space before one.
 * A lone space between other units is already what its run becomes (one before a break goes with the
 * break, which looks back for it), and a search with this pattern skips the text between changes in a
 * third of the time a loop over its units took.
 */
const CHANGE = new RegExp(`[${LINE_BREAKS}${OTHER_HORIZONTAL_BLANKS}]| [ ${OTHER_HORIZONTAL_BLANKS}]`, 'g');

/**
 * Where the match of CHANGE that a search from `from` ended at `end` starts. `test` says only where a match
 * ends (a match array per change was most of the garbage this pass made); a match is two units only when
 * it is a space and the blank after it, which a search reaching that space takes before the blank alone.
 */
function changeStart(text: string, from: number, end: number): number {
  return end - 2 >= from && text.charCodeAt(end - 2) === 0x20 && isHorizontalBlank(text.charCodeAt(end - 1))
    ? end - 2
    : end - 1;
}

/**
 * Whether the unit at `i` is a '\n' that stays as it is: no space before it (nor a run just collapsed
 * into one, which ends where `copied` is) and no blank or break after it. Most multi-line text has only
 * such breaks; leaving them in the stretch being copied returns the text itself rather than a copy
 * rebuilt line by line.
 */
function isUnchangedBreak(text: string, i: number, copied: number): boolean {
  return (
    text.charCodeAt(i) === 0x0a &&
    i > copied &&
    text.charCodeAt(i - 1) !== 0x20 &&
    i + 1 < text.length &&
    !isBlank(text.charCodeAt(i + 1))
  );
}

export function collapseBlanks(text: string): string {
  const n = text.length;
  let out = '';
  /** Start of the stretch of `text` not yet copied to `out`. */
  let copied = 0;
  let i = 0;
  for (;;) {
    CHANGE.lastIndex = i;
    if (!CHANGE.test(text)) break;
    i = changeStart(text, i, CHANGE.lastIndex);
    if (isUnchangedBreak(text, i, copied)) {
      i++;
      continue;
    }
    if (isLineBreak(text.charCodeAt(i))) {
      // One space before the break (at most one is left: runs were collapsed) goes with it.
      let cut = i;
      if (i > copied && text.charCodeAt(i - 1) === 0x20) cut = i - 1;
      else if (i === copied && out.endsWith(' ')) out = out.slice(0, -1);
      out += `${text.slice(copied, cut)}\n`;
      i++;
      while (i < n && isBlank(text.charCodeAt(i))) i++;
      copied = i;
    } else {
      // A run of horizontal blanks that is not a single space: it becomes one.
      let end = i + 1;
      while (end < n && isHorizontalBlank(text.charCodeAt(end))) end++;
      out += `${text.slice(copied, i)} `;
      copied = end;
      i = end;
    }
  }
  CHANGE.lastIndex = 0;
  if (copied === 0) return text.trim();
  return (out + text.slice(copied)).trim();
}
