/**
 * Frequent English words, counted in a text as they are, turned by ROT13 and spelled backwards: ROT13 of
 * English text holds few of them, English read through ROT13 many (views.ts decides from the counts
 * whether to score the text's ROT13 reading); text written backwards holds them backwards (reversal.ts).
 *
 * ROT13 maps each run of a–z to a run of a–z at the same place, so the common words of rot13(text) are
 * exactly the words of text that are common words turned. Both counts come from one pass that keys each
 * run of a–z by its letters (five bits each, six to an int) and looks the key up in one small table:
 * no word is sliced out or compared as a string.
 */
import { CodeUnits } from '../code-units.js';

export const COMMON_WORDS: readonly string[] =
  'the and you your all to of is are be this that with for now any previous instructions ignore system prompt not do from'.split(
    ' ',
  );

export function rot13(text: string): string {
  const out = new Array<string>(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[i] = c >= 0x61 && c <= 0x7a ? String.fromCharCode(((c - 0x61 + 13) % 26) + 0x61) : text[i]!;
  }
  return out.join('');
}

/**
 * The common words spelled backwards that ordinary text does not hold by chance: three letters or more
 * (backwards "is", "do", "to" are "si", "od", "ot", words of other languages), and not themselves words
 * ("won", "era", "ton", "dna": a maths problem about awards won four times read as reversed text).
 */
const BACKWARDS_WORDS: readonly string[] = COMMON_WORDS.map((w) => [...w].reverse().join('')).filter(
  (w) => w.length >= 3 && !['won', 'era', 'ton', 'dna'].includes(w),
);

/** Letters per half of a key: a word's first six letters and its next six. */
const HALF_LETTERS = 6;
/** Longer runs of a–z are none of the words. */
const MAX_COMMON_CHARS = 2 * HALF_LETTERS;
if (COMMON_WORDS.some((w) => w.length > MAX_COMMON_CHARS))
  throw new RangeError(`common words are keyed by at most ${MAX_COMMON_CHARS} letters`);

const OWN = 1;
const TURNED = 2;
const REVERSED = 4;
/** Open addressing, at most a quarter full (three spellings of each word); a slot whose key is 0 (no word) is empty. */
const SLOT_BITS = 9;
const SLOTS = 1 << SLOT_BITS;
if (3 * COMMON_WORDS.length > SLOTS / 4) throw new RangeError('common words: too many for the table');
const heads = new Int32Array(SLOTS);
const tails = new Int32Array(SLOTS);
const kinds = new Uint8Array(SLOTS);

/** The half-keys extended by one letter a–z (1..26, so that no key of letters is 0). */
function withLetter(key: number, unit: number): number {
  return key * 32 + (unit - 0x60);
}

function slotOf(head: number, tail: number): number {
  return Math.imul(head ^ Math.imul(tail, 0x85ebca6b), 0x9e3779b1) >>> (32 - SLOT_BITS);
}

/** The slot holding the word keyed (head, tail), or the empty one where it would go. */
function find(head: number, tail: number): number {
  let s = slotOf(head, tail);
  while (heads[s] !== 0 && (heads[s] !== head || tails[s] !== tail)) s = (s + 1) & (SLOTS - 1);
  return s;
}

for (const [words, kind] of [
  [COMMON_WORDS, OWN],
  [COMMON_WORDS.map(rot13), TURNED],
  [BACKWARDS_WORDS, REVERSED],
] as const) {
  for (const word of words) {
    let head = 0;
    let tail = 0;
    for (let k = 0; k < word.length; k++) {
      if (k < HALF_LETTERS) head = withLetter(head, word.charCodeAt(k));
      else tail = withLetter(tail, word.charCodeAt(k));
    }
    const s = find(head, tail);
    heads[s] = head;
    tails[s] = tail;
    kinds[s]! |= kind;
  }
}

const textUnits = new CodeUnits();

export interface CommonWordCounts {
  /** Words of the text (runs of a–z) that are common words. */
  own: number;
  /** Words that are common words turned by ROT13. */
  turned: number;
  /** Words that are common words spelled backwards. */
  reversed: number;
}

/** How many words of `text` are common words as they are, turned, and backwards (one pass). */
export function commonWordCounts(text: string): CommonWordCounts {
  let own = 0;
  let turned = 0;
  let reversed = 0;
  /** Letters of the current run (0 outside one) and its key so far. */
  let length = 0;
  let head = 0;
  let tail = 0;
  const units = textUnits.of(text);
  for (let i = 0; i <= text.length; i++) {
    const c = units[i]!;
    if (c >= 0x61 && c <= 0x7a) {
      if (length < HALF_LETTERS) head = withLetter(head, c);
      else if (length < MAX_COMMON_CHARS) tail = withLetter(tail, c);
      length++;
    } else if (length > 0) {
      if (length <= MAX_COMMON_CHARS) {
        const kind = kinds[find(head, tail)]!;
        own += kind & OWN;
        turned += (kind & TURNED) >> 1;
        reversed += kind >> 2;
      }
      length = 0;
      head = 0;
      tail = 0;
    }
  }
  return { own, turned, reversed };
}
