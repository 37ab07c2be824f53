/**
 * Long runs of one character (`####…` banners, `****` masks and separators, `!!!!!!`) shortened to three before
 * the classifier reads a text. A window's logit grows with the square root of how often one n-gram repeats
 * (Σ weights / √count, score.ts), so forty `#` of a code banner or a masked password scored as an injection
 * whenever `###` carried any positive weight. Three keep the n-gram itself (a `###` delimiter still reads as
 * one); only the repetition goes. Training and scoring both read views through this (views.ts).
 */
import { CodeUnits } from '../code-units.js';
import { WORD_CODE_UNITS } from './features.js';

const RUN_UNITS = new CodeUnits();

/** Longest run kept. */
export const MAX_RUN_CHARS = 3;

/** Index of the first code unit of `units` (at or after `from`, before `n`) that repeats the three before it, or -1. */
function firstLongRun(units: Uint16Array, n: number, from: number): number {
  let previous = -1;
  let repeats = 0;
  for (let i = from; i < n; i++) {
    const c = units[i]!;
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
  // a typed copy: `charCodeAt` on the views' many string kinds took a generic path (code-units.ts)
  const units = RUN_UNITS.of(text);
  const n = text.length;
  let at = firstLongRun(units, n, 0);
  if (at < 0) return text;
  let out = '';
  let kept = 0;
  while (at >= 0) {
    const c = units[at]!;
    let end = at + 1;
    while (end < n && units[end] === c) end++;
    out += text.slice(kept, at);
    kept = end;
    // text[end] differs from the run, so the next run starts afresh there
    at = firstLongRun(units, n, end);
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
 * The words of the text last read by `readWords` (runs of word code units, as the features read them):
 * word w spans [wordStarts[w], wordEnds[w]) and `wordKeys[w]` is a key made of its length and its first and
 * last units, so two words are compared by one integer first (and the units read once more only when the
 * keys agree: a hash of every unit cost more than it saved). Punctuation between words is not part of a word, so "thank you, thank
 * you, thank you!" repeats one phrase. Reused typed arrays: a list of offsets built by `push` for every
 * field cost more than the comparisons themselves (scoring is synchronous, so one set suffices).
 */
let wordStarts = new Int32Array(512);
let wordEnds = new Int32Array(512);
let wordKeys = new Int32Array(512);
/** Per word of the text last read: 1 while it is kept by `collapseRepeatedPhrases`. */
let wordKept = new Uint8Array(512);
const wordUnits = new CodeUnits();
/** The code units of the text last read by `readWords`. */
let units: Uint16Array = new Uint16Array(1);

/** Reads the words of `text` into the arrays above; returns how many there are. */
function readWords(text: string): number {
  const n = text.length;
  // at most one word per two units (a word and the unit that ends it), plus one
  if (wordStarts.length < (n >> 1) + 1) {
    const size = 2 * ((n >> 1) + 1);
    wordStarts = new Int32Array(size);
    wordEnds = new Int32Array(size);
    wordKeys = new Int32Array(size);
    wordKept = new Uint8Array(size);
  }
  // locals, not the module's bindings, inside the loop: each read of those goes through the module scope
  const unitsRead = wordUnits.of(text);
  units = unitsRead;
  const isWordUnit = WORD_CODE_UNITS;
  const starts = wordStarts;
  const ends = wordEnds;
  const keys = wordKeys;
  let words = 0;
  let i = 0;
  while (i < n) {
    while (i < n && isWordUnit[unitsRead[i]!] === 0) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && isWordUnit[unitsRead[i]!] === 1) i++;
    starts[words] = start;
    ends[words] = i;
    keys[words++] = (((unitsRead[start]! << 16) | unitsRead[i - 1]!) ^ ((i - start) << 27)) | 0;
  }
  return words;
}

function sameWord(a: number, b: number): boolean {
  if (wordKeys[a] !== wordKeys[b]) return false;
  const length = wordEnds[a]! - wordStarts[a]!;
  if (length !== wordEnds[b]! - wordStarts[b]!) return false;
  const from = wordStarts[a]!;
  const to = wordStarts[b]!;
  for (let i = 0; i < length; i++) if (units[from + i] !== units[to + i]) return false;
  return true;
}

/** Characters that mark a boundary rather than prose: brackets, tags, pipes, rules and markup. */
const DELIMITER_CHARS = new Set('<>[]{}|#=*_~`/\\'.split('').map((c) => c.charCodeAt(0)));

/** Whether the text last read by `readWords` has a delimiter character in [start, end). */
function hasDelimiter(start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (DELIMITER_CHARS.has(units[i]!)) return true;
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
  const words = readWords(text);
  if (words < MIN_REPEATED_PHRASE_COPIES) return text;
  const keep = wordKept.fill(1, 0, words);
  let changed = false;
  for (let w = 0; w < words; ) {
    let advanced = false;
    for (let k = 1; k <= MAX_REPEATED_PHRASE_WORDS && w + k * MIN_REPEATED_PHRASE_COPIES <= words; k++) {
      // a third copy needs the words k and 2k further on to be this one (w + 2k < words here)
      const key = wordKeys[w]!;
      if (wordKeys[w + k] !== key || wordKeys[w + 2 * k] !== key) continue;
      // how many words after the first copy continue the period-k repetition
      let n = 0;
      while (w + k + n < words && sameWord(w + n, w + k + n)) n++;
      const copies = 1 + Math.floor(n / k);
      if (copies < MIN_REPEATED_PHRASE_COPIES) continue;
      // a repeated fake boundary ("<end of session> <end of session> …") is delimiter flooding, an attack
      // technique (OWASP LLM01): its repetition is the signal and stays. The run is stepped over whole
      // either way: read again from each of its words, a 64 KiB run of "a# " took seconds (quadratic; outside
      // review: one 131 KB propose held the event loop for 10 s).
      if (!hasDelimiter(wordStarts[w]!, wordEnds[w + k * copies - 1]!)) {
        for (let j = w + k * KEPT_PHRASE_COPIES; j < w + k * copies; j++) keep[j] = 0;
        changed = true;
      }
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
    out += text.slice(cursor, wordEnds[w - 1]!);
    cursor = wordEnds[w]!;
  }
  return out + text.slice(cursor);
}
