/**
 * Scores one normalised text with the classifier, window by window. A long benign document with one
 * injected paragraph must still fire, and averaging over the whole document would drown the paragraph;
 * so the text is cut into overlapping windows (`windowChars`, every `strideChars`) and the highest
 * window decides. Each feature's weight is added at its offset once (feature-weights.ts), and prefix
 * sums give every window's total in O(1), so the cost stays linear in the text whatever the overlap.
 *
 * Windows come in two sizes (`windowScales`): a short injected sentence inside a long window of
 * harmless text is diluted by it, so the short windows find it; a long attack spread over several
 * sentences needs the long ones.
 *
 * A window's logit is bias + Σ weights / √(feature count): the same normalisation the trainer uses
 * (train.ts), which keeps short and long windows on one scale.
 */
import { sumFeatureWeights } from './feature-weights.js';
import type { InjectionModel } from './model.js';
import { variantPrefixSums } from './variant-weights.js';

/** Characters of the passage named in a finding: the part of the winning window that weighs most. */
export const PASSAGE_CHARS = 160;

export interface WindowScore {
  logit: number;
  /** [start, end) of the winning window in the scored text. */
  windowStart: number;
  windowEnd: number;
  /** [start, end) of the heaviest `PASSAGE_CHARS` inside the winning window. */
  passageStart: number;
  passageEnd: number;
}

// Prefix sums reused between calls (scoring is synchronous, so one set of buffers suffices).
let weightPrefix = new Float64Array(1024);
let countPrefix = new Float64Array(1024);

/** The text whose prefix sums the buffers hold, and the table they were summed from. */
let summedText: string | undefined;
let summedTable: Int8Array | Float32Array | undefined;

function ensureCapacity(n: number): void {
  if (weightPrefix.length >= n) return;
  let size = weightPrefix.length;
  while (size < n) size *= 2;
  weightPrefix = new Float64Array(size);
  countPrefix = new Float64Array(size);
  summedText = undefined;
}

/** The window sizes and steps scored: the model's own and one a third of it. */
export function windowScales(
  windowChars: number,
  strideChars: number,
): { windowChars: number; strideChars: number }[] {
  return [
    { windowChars, strideChars },
    { windowChars: Math.round(windowChars / 3), strideChars: Math.max(1, Math.round(strideChars / 3)) },
  ];
}

export function logistic(logit: number): number {
  return 1 / (1 + Math.exp(-logit));
}

export function scoreText(text: string, model: InjectionModel): WindowScore {
  const n = text.length;
  ensureCapacity(n + 1);
  const ws = weightPrefix;
  const cs = countPrefix;
  // Sums are kept in table units and scaled once per window.
  const table: Int8Array | Float32Array = model.quantised?.table ?? model.weights;
  const scale = model.quantised?.scale ?? 1;
  const mask = (1 << model.bits) - 1;
  // A field's skeleton is scored right after its plain view, from which it differs in a few units
  // (variant-weights.ts gives the same sums); any other text is summed in full.
  const variant =
    summedText !== undefined &&
    summedText.length === n &&
    summedTable === table &&
    table instanceof Int8Array &&
    variantPrefixSums(summedText, text, mask, table, ws, cs);
  if (!variant) sumPrefixes(text, mask, table);
  summedText = text;
  summedTable = table;
  // The winning window is kept in locals and made an object once: an object per better window found
  // was garbage a few times per view.
  let bestLogit = Number.NEGATIVE_INFINITY;
  let bestStart = 0;
  let bestEnd = n;
  for (const size of windowScales(model.windowChars, model.strideChars)) {
    for (let start = 0; ; start += size.strideChars) {
      const end = Math.min(n, start + size.windowChars);
      const count = cs[end]! - cs[start]!;
      const logit =
        count > 0 ? model.bias + (scale * (ws[end]! - ws[start]!)) / Math.sqrt(count) : model.bias;
      if (logit > bestLogit) {
        bestLogit = logit;
        bestStart = start;
        bestEnd = end;
      }
      if (end >= n) break;
    }
  }
  const best: WindowScore = {
    logit: bestLogit,
    windowStart: bestStart,
    windowEnd: bestEnd,
    passageStart: bestStart,
    passageEnd: bestEnd,
  };
  narrowToPassage(best);
  return best;
}

/** The prefix sums of `text`'s feature weights and counts, in full. */
function sumPrefixes(text: string, mask: number, table: Int8Array | Float32Array): void {
  const ws = weightPrefix;
  const cs = countPrefix;
  sumFeatureWeights(text, mask, table, ws, cs);
  // The running totals stay in locals: reading back the entry just stored put a store and a load in the
  // chain of every addition. The same additions, so the same sums.
  let weight = 0;
  let count = 0;
  for (let i = 1; i <= text.length; i++) {
    weight += ws[i]!;
    ws[i] = weight;
    count += cs[i]!;
    cs[i] = count;
  }
}

/** Moves the passage bounds to the heaviest `PASSAGE_CHARS` of the winning window. */
function narrowToPassage(score: WindowScore): void {
  const { windowStart, windowEnd } = score;
  if (windowEnd - windowStart <= PASSAGE_CHARS) return;
  let bestSum = Number.NEGATIVE_INFINITY;
  for (let s = windowStart; s + PASSAGE_CHARS <= windowEnd; s += 8) {
    const sum = weightPrefix[s + PASSAGE_CHARS]! - weightPrefix[s]!;
    if (sum > bestSum) {
      bestSum = sum;
      score.passageStart = s;
      score.passageEnd = s + PASSAGE_CHARS;
    }
  }
}
