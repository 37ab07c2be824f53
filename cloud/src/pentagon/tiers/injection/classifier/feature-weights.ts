/**
 * The weights of a text's features summed per start offset, for the scorer (score.ts), in one pass over
 * the text. It is `extractFeatures` (features.ts) followed by adding `table[slot]` at each feature's
 * offset, without the list in between: writing four slots and offsets per character and reading them
 * back cost as much as hashing them. The hashing steps are the ones extractFeatures uses, and the
 * additions into each offset come in the same order (its 3-, 4- and 5-gram, then the word starting
 * there, then the bigram), so the sums are the same numbers to the last bit, for float weights too.
 * test/pentagon/injection-fast-classifier.test.ts compares the two on the corpus and random text.
 */
import {
  bigramSlot,
  charGramSlot,
  FNV_OFFSET,
  fnvStep,
  MAX_WORD_CHARS,
  WORD_CODE_UNITS,
  wordHash,
} from './features.js';
import { CodeUnits } from '../code-units.js';

const TEXT_UNITS = new CodeUnits();

/**
 * For every offset i < text.length: `weightAt[i + 1]` = the sum of `table[slot]` over the features that
 * start at i, and `countAt[i + 1]` = how many they are. `weightAt[0]` and `countAt[0]` are set to 0 (the
 * caller turns both into prefix sums). `mask` is the table size − 1.
 */
export function sumFeatureWeights(
  text: string,
  mask: number,
  table: Int8Array | Float32Array,
  weightAt: Float64Array,
  countAt: Float64Array,
): void {
  const n = text.length;
  weightAt[0] = 0;
  countAt[0] = 0;
  // Read from a typed copy: views come as every kind of V8 string, and `charCodeAt` on them took a
  // generic path in this loop (the copy ends with a 0, so one unit past the end reads as none).
  const units = TEXT_UNITS.of(text);
  // The code units at i .. i+4 (0 past the end; only read where they exist).
  let c0 = n > 0 ? units[0]! : 0;
  let c1 = n > 1 ? units[1]! : 0;
  let c2 = n > 2 ? units[2]! : 0;
  let c3 = n > 3 ? units[3]! : 0;
  // Whether c0 is a word unit (carried from the step before, where it was c1).
  let word0 = WORD_CODE_UNITS[c0] === 1;
  // The word being read: its start (−1 outside one) and FNV state; the previous word's hash, if any.
  let wordStart = -1;
  let wordState = FNV_OFFSET;
  let previous = 0;
  let havePrevious = false;
  for (let i = 0; i < n; i++) {
    const c4 = i + 4 < n ? units[i + 4]! : 0;
    let sum = 0;
    let count = 0;
    if (i + 3 <= n) {
      let h = fnvStep(fnvStep(fnvStep(FNV_OFFSET, c0), c1), c2);
      sum += table[charGramSlot(h, 3, mask)]!;
      count++;
      if (i + 4 <= n) {
        h = fnvStep(h, c3);
        sum += table[charGramSlot(h, 4, mask)]!;
        count++;
        if (i + 5 <= n) {
          h = fnvStep(h, c4);
          sum += table[charGramSlot(h, 5, mask)]!;
          count++;
        }
      }
    }
    // Set, not added: the word and bigram starting at i are added when the word ends, after this.
    weightAt[i + 1] = sum;
    countAt[i + 1] = count;
    const word1 = WORD_CODE_UNITS[c1] === 1;
    if (word0) {
      if (wordStart < 0) {
        wordStart = i;
        wordState = FNV_OFFSET;
      }
      wordState = fnvStep(wordState, c0);
      // The word ends at i when the next unit is none (0) or not a word unit.
      if (!word1) {
        if (i + 1 - wordStart > MAX_WORD_CHARS) havePrevious = false;
        else {
          const word = wordHash(wordState);
          weightAt[wordStart + 1]! += table[word & mask]!;
          countAt[wordStart + 1]! += 1;
          if (havePrevious) {
            weightAt[wordStart + 1]! += table[bigramSlot(previous, word, mask)]!;
            countAt[wordStart + 1]! += 1;
          }
          previous = word;
          havePrevious = true;
        }
        wordStart = -1;
      }
    }
    word0 = word1;
    c0 = c1;
    c1 = c2;
    c2 = c3;
    c3 = c4;
  }
}
