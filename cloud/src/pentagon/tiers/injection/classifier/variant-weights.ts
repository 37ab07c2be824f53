/**
 * The feature-weight prefix sums of a variant of a text, from those of the text, when the two differ in
 * a few code units: the skeleton of a plain view (look-alike letters and leetspeak mapped back) usually
 * differs in an e-mail's `@` or a digit or two, and scoring it in full cost as much as the plain view.
 * Only the features that read a changed unit are recomputed: the character n-grams over it, the words
 * around it (a unit that becomes a letter can join two words) and the bigram of the word after them.
 *
 * With an int8 table every sum is an integer well inside a double's exact range, so adding the changed
 * features' differences gives the very numbers a full pass over the variant gives (the order of
 * additions cannot matter). A float table would not: it is refused here and scored in full.
 */
import { CodeUnits } from '../code-units.js';
import {
  bigramSlot,
  charGramSlot,
  FNV_OFFSET,
  fnvStep,
  MAX_WORD_CHARS,
  WORD_CODE_UNITS,
  wordHash,
} from './features.js';

/**
 * Above one changed unit in this many the variant is summed in full: on the bench's skeletons,
 * recomputing around each change costs about what a full pass does at one change in 16 to 20 units.
 */
const MOST_CHANGES_PER_UNIT = 1 / 24;

// Reused between calls (scoring is synchronous): changed positions and per-offset differences.
let changed = new Int32Array(256);
let weightDelta = new Float64Array(1024);
let countDelta = new Float64Array(1024);

/**
 * Turns `weightPrefix` and `countPrefix`, the prefix sums of `text`'s feature weights and counts
 * (score.ts), into those of `variant`, a string of the same length; false (arrays untouched) when the
 * two differ in too many units to gain.
 */
export function variantPrefixSums(
  text: string,
  variant: string,
  mask: number,
  table: Int8Array,
  weightPrefix: Float64Array,
  countPrefix: Float64Array,
): boolean {
  const n = text.length;
  const changes = changedUnits(text, variant, Math.floor(n * MOST_CHANGES_PER_UNIT));
  if (changes < 0) return false;
  if (weightDelta.length < n + 1) {
    weightDelta = new Float64Array(2 * (n + 1));
    countDelta = new Float64Array(2 * (n + 1));
  }
  weightDelta.fill(0, 0, n + 1);
  countDelta.fill(0, 0, n + 1);
  let gramsDone = -1;
  let wordsDone = 0;
  for (let k = 0; k < changes; k++) {
    const at = changed[k]!;
    // The n-grams that read unit `at` start at most four units before it.
    for (let i = Math.max(gramsDone + 1, at - 4); i <= at && i + 3 <= n; i++) {
      weightDelta[i + 1]! += gramWeight(variant, i, mask, table) - gramWeight(text, i, mask, table);
      gramsDone = i;
    }
    // A unit outside words in both texts changes no word; one inside may change its word and the next.
    if (at < wordsDone || !inAWord(text, variant, at)) continue;
    wordsDone = replayWords(text, variant, at, k, changes, mask, table);
  }
  // No difference lies before the first change's n-grams or the start of its word.
  const first = changes > 0 ? changed[0]! : n;
  const untouched = Math.min(Math.max(0, first - 4), first < n ? wordStart(text, variant, first) : n);
  let weight = 0;
  let count = 0;
  for (let i = untouched + 1; i <= n; i++) {
    weight += weightDelta[i]!;
    weightPrefix[i]! += weight;
    count += countDelta[i]!;
    countPrefix[i]! += count;
  }
  return true;
}

const textUnits = new CodeUnits();
const variantUnits = new CodeUnits();

/** Lists in `changed` where `text` and `variant` differ; their number, or −1 when more than `most`. */
function changedUnits(text: string, variant: string, most: number): number {
  if (changed.length < most) changed = new Int32Array(most);
  const a = textUnits.of(text);
  const b = variantUnits.of(variant);
  let changes = 0;
  for (let i = 0; i < text.length; i++) {
    if (a[i] === b[i]) continue;
    if (changes === most) return -1;
    changed[changes++] = i;
  }
  return changes;
}

/** Whether unit i is a word unit in either text: words of both lie within runs of such units. */
function inAWord(text: string, variant: string, i: number): boolean {
  return WORD_CODE_UNITS[text.charCodeAt(i)] === 1 || WORD_CODE_UNITS[variant.charCodeAt(i)] === 1;
}

/** Where the run of word units (in either text) holding unit `at` starts; `at` when none holds it. */
function wordStart(text: string, variant: string, at: number): number {
  if (!inAWord(text, variant, at)) return at;
  let start = at;
  while (start > 0 && inAWord(text, variant, start - 1)) start--;
  return start;
}

/**
 * The word and bigram features around the change at `changed[k]`, a unit inside a word in either text,
 * taken out for `text` and put in for `variant`. The span replayed starts at the run of word units (in
 * either text) holding the change and ends after the next run without a change, whose bigram reads the
 * changed word; a change inside that run extends the span. Before the span both texts have the same
 * words, so each run is primed with the same previous word. Returns where the span ends (later changes
 * before it are covered).
 */
function replayWords(
  text: string,
  variant: string,
  at: number,
  k: number,
  changes: number,
  mask: number,
  table: Int8Array,
): number {
  const n = text.length;
  const start = wordStart(text, variant, at);
  let end = at;
  let next = k;
  for (;;) {
    while (end < n && inAWord(text, variant, end)) end++;
    while (next < changes && changed[next]! < end) next++;
    // The next run of word units: its bigram reads the word just ended.
    let following = end;
    while (following < n && !inAWord(text, variant, following)) following++;
    if (following === n) break;
    end = following;
    while (end < n && inAWord(text, variant, end)) end++;
    if (next === changes || changed[next]! >= end) break;
  }
  // The last word before the span, the same in both texts: it primes the bigram of the first.
  let primer = start;
  while (primer > 0 && !inAWord(text, variant, primer - 1)) primer--;
  while (primer > 0 && inAWord(text, variant, primer - 1)) primer--;
  addWordWeights(text, primer, start, end, -1, mask, table);
  addWordWeights(variant, primer, start, end, 1, mask, table);
  return end;
}

/**
 * Adds `sign` × the word and bigram features of `text` that start in [emitFrom, end) to the deltas, read
 * from `from` (at a word start, or emitFrom) so that the words before emitFrom set the previous word as
 * sumFeatureWeights (feature-weights.ts) does. `end` is the end of the text or not in a word.
 */
function addWordWeights(
  text: string,
  from: number,
  emitFrom: number,
  end: number,
  sign: number,
  mask: number,
  table: Int8Array,
): void {
  let previous = 0;
  let havePrevious = false;
  let i = from;
  while (i < end) {
    if (WORD_CODE_UNITS[text.charCodeAt(i)] !== 1) {
      i++;
      continue;
    }
    const start = i;
    let state = FNV_OFFSET;
    while (i < end && WORD_CODE_UNITS[text.charCodeAt(i)] === 1) state = fnvStep(state, text.charCodeAt(i++));
    if (i - start > MAX_WORD_CHARS) {
      havePrevious = false;
      continue;
    }
    const word = wordHash(state);
    if (start >= emitFrom) {
      weightDelta[start + 1]! += sign * table[word & mask]!;
      countDelta[start + 1]! += sign;
      if (havePrevious) {
        weightDelta[start + 1]! += sign * table[bigramSlot(previous, word, mask)]!;
        countDelta[start + 1]! += sign;
      }
    }
    previous = word;
    havePrevious = true;
  }
}

/** The summed weights of the character 3-, 4- and 5-grams starting at offset i (i + 3 ≤ text.length). */
function gramWeight(text: string, i: number, mask: number, table: Int8Array): number {
  let h = fnvStep(
    fnvStep(fnvStep(FNV_OFFSET, text.charCodeAt(i)), text.charCodeAt(i + 1)),
    text.charCodeAt(i + 2),
  );
  let sum = table[charGramSlot(h, 3, mask)]!;
  if (i + 4 <= text.length) {
    h = fnvStep(h, text.charCodeAt(i + 3));
    sum += table[charGramSlot(h, 4, mask)]!;
    if (i + 5 <= text.length) {
      h = fnvStep(h, text.charCodeAt(i + 4));
      sum += table[charGramSlot(h, 5, mask)]!;
    }
  }
  return sum;
}
