/**
 * Long runs of one character (`####…` banners, `****` masks and separators, `!!!!!!`) shortened to three before
 * the classifier reads a text. A window's logit grows with the square root of how often one n-gram repeats
 * (Σ weights / √count, score.ts), so forty `#` of a code banner or a masked password scored as an injection
 * whenever `###` carried any positive weight. Three keep the n-gram itself (a `###` delimiter still reads as
 * one); only the repetition goes. Training and scoring both read views through this (views.ts).
 */
import { WORD_CODE_UNITS } from './features.js';

/** Longest run kept. */
export const MAX_RUN_CHARS = 3;

/** Index of the first code unit (at or after `from`) that repeats the three before it, or -1. */
function firstLongRun(text: string, from: number): number {
  let previous = -1;
  let repeats = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== previous) {
      previous = c;
      repeats = 0;
    } else if (++repeats === MAX_RUN_CHARS) {
      return i;
    }
  }
  return -1;
}

/**
 * Runs of one UTF-16 code unit (a surrogate pair is two different units, so a pair is never cut); a text
 * without a long run, which is nearly every text, is returned as it is after one pass.
 */
export function collapseRuns(text: string): string {
  let at = firstLongRun(text, 0);
  if (at < 0) return text;
  let out = '';
  let kept = 0;
  while (at >= 0) {
    const c = text.charCodeAt(at);
    let end = at + 1;
    while (end < text.length && text.charCodeAt(end) === c) end++;
    out += text.slice(kept, at);
    kept = end;
    // text[end] differs from the run, so the next run starts afresh there
    at = firstLongRun(text, end);
  }
  return out + text.slice(kept);
}

/** Longest phrase (in words) whose back-to-back repetition is shortened. */
export const MAX_REPEATED_PHRASE_WORDS = 4;
/** Copies in a row from which a phrase is shortened ("very very" and "thank you, thank you" stay). */
export const MIN_REPEATED_PHRASE_COPIES = 3;
/** Copies kept of a phrase repeated at least `MIN_REPEATED_PHRASE_COPIES` times. */
export const KEPT_PHRASE_COPIES = 1;

/**
 * Start and end offsets of the words of `text` (runs of word code units, as the features read them), as
 * [start0, end0, start1, end1, …]. Punctuation between words is not part of a word, so "thank you, thank
 * you, thank you!" repeats one phrase.
 */
function wordBounds(text: string): number[] {
  const bounds: number[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && WORD_CODE_UNITS[text.charCodeAt(i)] === 0) i++;
    if (i >= text.length) break;
    const start = i;
    while (i < text.length && WORD_CODE_UNITS[text.charCodeAt(i)] === 1) i++;
    bounds.push(start, i);
  }
  return bounds;
}

function sameWord(text: string, bounds: number[], a: number, b: number): boolean {
  const length = bounds[2 * a + 1]! - bounds[2 * a]!;
  if (length !== bounds[2 * b + 1]! - bounds[2 * b]!) return false;
  // unit by unit: a slice per comparison allocated for every pair of words of one length
  const from = bounds[2 * a]!;
  const to = bounds[2 * b]!;
  for (let i = 0; i < length; i++) if (text.charCodeAt(from + i) !== text.charCodeAt(to + i)) return false;
  return true;
}

/** Characters that mark a boundary rather than prose: brackets, tags, pipes, rules and markup. */
const DELIMITER_CHARS = new Set('<>[]{}|#=*_~`/\\'.split('').map((c) => c.charCodeAt(0)));

function hasDelimiter(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (DELIMITER_CHARS.has(text.charCodeAt(i))) return true;
  return false;
}

/**
 * The same idea for words: a phrase of one to four words said three or more times in a row ("please please
 * please …", "lorem ipsum lorem ipsum …") keeps one copy. Twenty copies of "please" otherwise fill a window with
 * the weight of `please`, `please please` and their character n-grams, and the √count normalisation lets
 * the logit grow with the square root of the copies, so pleading, thanks or a word typed over and over
 * ("system system …", 0.999) scored like an instruction. Saying a phrase again adds no instruction: one copy
 * keeps every word and n-gram it has; an attack padded with repeated words keeps its own words once.
 * Repeated delimiters are not prose and are left as they are (see below).
 */
export function collapseRepeatedPhrases(text: string): string {
  const bounds = wordBounds(text);
  const words = bounds.length / 2;
  if (words < 3) return text;
  const keep = new Uint8Array(words).fill(1);
  let changed = false;
  for (let w = 0; w < words; ) {
    let advanced = false;
    for (let k = 1; k <= MAX_REPEATED_PHRASE_WORDS && w + k * MIN_REPEATED_PHRASE_COPIES <= words; k++) {
      // how many words after the first copy continue the period-k repetition
      let n = 0;
      while (w + k + n < words && sameWord(text, bounds, w + n, w + k + n)) n++;
      const copies = 1 + Math.floor(n / k);
      if (copies < MIN_REPEATED_PHRASE_COPIES) continue;
      // a repeated fake boundary ("<end of session> <end of session> …") is delimiter flooding, an attack
      // technique (OWASP LLM01): its repetition is the signal and stays
      if (hasDelimiter(text, bounds[2 * w]!, bounds[2 * (w + k * copies) - 1]!)) continue;
      for (let j = w + k * KEPT_PHRASE_COPIES; j < w + k * copies; j++) keep[j] = 0;
      changed = true;
      w += k * copies;
      advanced = true;
      break;
    }
    if (!advanced) w++;
  }
  if (!changed) return text;
  // a dropped word goes with the blanks before it, so the kept text keeps its own line breaks
  let out = '';
  let cursor = 0;
  for (let w = KEPT_PHRASE_COPIES; w < words; w++) {
    if (keep[w]) continue;
    out += text.slice(cursor, bounds[2 * w - 1]!);
    cursor = bounds[2 * w + 1]!;
  }
  return out + text.slice(cursor);
}
