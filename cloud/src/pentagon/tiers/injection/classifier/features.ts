/**
 * Hashed text features for the injection classifier: word unigrams and bigrams and character 3-, 4- and
 * 5-grams of a normalised view, each hashed into a fixed table of `2^bits` weights (the "hashing trick",
 * Weinberger et al. 2009). Every feature is stored with the character offset where it starts, so a
 * caller can sum the weights of any window of the text without extracting features again.
 *
 * Training and scoring call this same function: a model is only valid for the exact feature function it
 * was trained with, which is why `FEATURE_VERSION` is written into the weights file and checked on load.
 */

/** Bumped whenever the features below change; a weights file of another version is refused. */
export const FEATURE_VERSION = 1;

/** The FNV-1a state before the first code unit of a character n-gram or a word. */
export const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Seeds that keep the feature kinds apart in the shared table. */
const SEED_WORD = 0x9e3779b1;
const SEED_BIGRAM = 0x85ebca77;
const SEED_CHAR = [0, 0, 0, 0xc2b2ae3d, 0x27d4eb2f, 0x165667b1] as const;

/** A word: a run of letters, marks or digits (any script). */
export function isWordCodeUnit(c: number): boolean {
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a);
  // Outside ASCII: everything except general punctuation, CJK punctuation and full-width forms'
  // punctuation counts as a word character. Han/kana runs become one long "word"; their character
  // n-grams carry the signal.
  return !(
    (c >= 0x2000 && c <= 0x206f) ||
    (c >= 0x3000 && c <= 0x303f) ||
    (c >= 0xff00 && c <= 0xff0f) ||
    (c >= 0xff1a && c <= 0xff20) ||
    c === 0xa0
  );
}

/**
 * isWordCodeUnit as a table by code unit (1: a word unit), for the scoring pass (feature-weights.ts): one
 * read, where the comparisons' branches were mispredicted at word edges.
 */
export const WORD_CODE_UNITS: Uint8Array = Uint8Array.from({ length: 0x10000 }, (_, c) =>
  isWordCodeUnit(c) ? 1 : 0,
);

/** Words longer than this are not features: very long runs (unsegmented CJK, hashes, base64) say little
 * as one word, and their n-grams suffice. */
export const MAX_WORD_CHARS = 24;

function mix(h: number): number {
  // Final avalanche (murmur3 fmix32) so nearby FNV states spread over the whole table. The result is
  // left signed (int32): every use masks it or feeds it to ^ and Math.imul, which read the same 32 bits
  // either way, so slots are the same numbers; an unsigned result above 2^31 was a double to the JIT.
  let x = h ^ (h >>> 16);
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return x ^ (x >>> 16);
}

// The hashing steps below are the feature function: extractFeatures (training) and sumFeatureWeights
// (scoring, feature-weights.ts) are both written with them, so the two cannot drift apart.

/** The FNV-1a state after one more code unit. */
export function fnvStep(h: number, unit: number): number {
  return Math.imul(h ^ unit, FNV_PRIME);
}

/** The table slot of a character n-gram of `length` (3, 4 or 5) code units whose FNV state is `h`. */
export function charGramSlot(h: number, length: 3 | 4 | 5, mask: number): number {
  return mix(h ^ SEED_CHAR[length]) & mask;
}

/** A word's hash (int32, before masking) from its FNV state; its slot is `wordHash & mask`. */
export function wordHash(h: number): number {
  return mix(h ^ SEED_WORD);
}

/** The table slot of the bigram of two consecutive words' hashes. */
export function bigramSlot(previous: number, word: number, mask: number): number {
  return mix(Math.imul(previous, 31) ^ word ^ SEED_BIGRAM) & mask;
}

/**
 * The features of one text: `slots[k]` is the k-th feature's slot in the weight table and `offsets[k]`
 * the character offset where it starts, for k < `length`. One buffer is reused call after call, so
 * extracting features allocates nothing once it has grown to the longest text seen.
 */
export class FeatureBuffer {
  slots = new Int32Array(1024);
  offsets = new Int32Array(1024);
  length = 0;

  /** Makes room for `count` features, dropping the current ones. */
  reset(count: number): void {
    this.length = 0;
    if (this.slots.length >= count) return;
    let size = this.slots.length;
    while (size < count) size *= 2;
    this.slots = new Int32Array(size);
    this.offsets = new Int32Array(size);
  }
}

/**
 * Extracts every feature of `text` (already normalised: lower case, blanks collapsed) into `out`, in
 * order of offset within each kind. `bits` is the log2 size of the weight table.
 */
export function extractFeatures(text: string, bits: number, out: FeatureBuffer): void {
  const mask = (1 << bits) - 1;
  const n = text.length;
  // At most three character n-grams per offset, and a word and a bigram per two characters.
  out.reset(3 * n + n + 2);
  const slots = out.slots;
  const offsets = out.offsets;
  let k = 0;
  // Character n-grams: one FNV state per start offset, extended to length 5, emitting at 3, 4 and 5.
  for (let i = 0; i + 3 <= n; i++) {
    let h = FNV_OFFSET;
    const end = Math.min(n, i + 5);
    for (let j = i; j < end; j++) {
      h = fnvStep(h, text.charCodeAt(j));
      const len = j - i + 1;
      if (len >= 3) {
        slots[k] = charGramSlot(h, len as 3 | 4 | 5, mask);
        offsets[k++] = i;
      }
    }
  }
  // Words and word bigrams.
  let previous = 0;
  let havePrevious = false;
  let i = 0;
  while (i < n) {
    if (!isWordCodeUnit(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    let h = FNV_OFFSET;
    while (i < n && isWordCodeUnit(text.charCodeAt(i))) {
      h = fnvStep(h, text.charCodeAt(i));
      i++;
    }
    if (i - start > MAX_WORD_CHARS) {
      havePrevious = false;
      continue;
    }
    const word = wordHash(h);
    slots[k] = word & mask;
    offsets[k++] = start;
    if (havePrevious) {
      slots[k] = bigramSlot(previous, word, mask);
      offsets[k++] = start;
    }
    previous = word;
    havePrevious = true;
  }
  out.length = k;
}
