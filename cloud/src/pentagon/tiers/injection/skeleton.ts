/**
 * The skeleton and squashed views of a plain view, in one pass. The skeleton maps look-alike Cyrillic and
 * Greek letters to the Latin ones they imitate (Unicode TR39 confusables) and leetspeak digits and
 * symbols next to a letter to that letter; it is exactly
 *   plain.replace(/[<HOMOGLYPHS keys>]/gu, homoglyph).replace(/(?<=[a-z])[013457@$]|[013457@$](?=[a-z])/g, leet)
 * (the leetspeak test looks at the neighbours after the homoglyph mapping, as the second pattern does),
 * and the squashed view, the skeleton's letters a–z only, is exactly skeleton.replace(/[^a-z]+/g, '').
 * Those three passes, two with a callback per match, cost a third of the normalisation time, most on
 * Cyrillic text, where nearly every letter matches; here the letters are gathered as the skeleton is made.
 */
import { CodeUnits } from './code-units.js';

/** Cyrillic and Greek letters that render like Latin ones (after lower-casing). */
export const HOMOGLYPHS: Readonly<Record<string, string>> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ɡ: 'g',
  һ: 'h',
  ӏ: 'l',
  ԛ: 'q',
  ԝ: 'w',
  ү: 'y',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
};

/** Leetspeak digits and symbols inside words. */
export const LEET: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};

/** HOMOGLYPHS as a table by code unit (0: no mapping); every key is below U+0530. */
const HOMOGLYPH_LIMIT = 0x0530;
const HOMOGLYPH_TABLE = new Uint16Array(HOMOGLYPH_LIMIT);
for (const [k, v] of Object.entries(HOMOGLYPHS)) HOMOGLYPH_TABLE[k.charCodeAt(0)] = v.charCodeAt(0);
/** LEET as a table by ASCII code (0: not a leetspeak character). */
const LEET_TABLE = new Uint8Array(0x80);
for (const [k, v] of Object.entries(LEET)) LEET_TABLE[k.charCodeAt(0)] = v.charCodeAt(0);

function isLatinLower(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}

/** 1 for a–z, else 0, by arithmetic (both differences are non-negative only inside the range). */
function isLatinLowerBit(c: number): number {
  return (((c - 0x61) | (0x7a - c)) >>> 31) ^ 1;
}

/** A code unit after the homoglyph mapping. */
function mapped(c: number): number {
  return c < HOMOGLYPH_LIMIT ? HOMOGLYPH_TABLE[c]! || c : c;
}

/**
 * The skeleton's code units and the squashed view's letters go into reused buffers, each made a string by
 * one native decode: building them with String.fromCharCode.apply (or splicing slices of `plain`) cost
 * more than the pass itself. The skeleton is UTF-16LE, low byte first on any machine.
 */
let skeletonBytes = Buffer.alloc(2048);
/** The skeleton's letters a–z, in order: the squashed view, gathered in the same pass. */
let letters = Buffer.alloc(1024);

const plainUnits = new CodeUnits();

export function disguisesUndone(plain: string): { skeleton: string; squashed: string } {
  const n = plain.length;
  if (letters.length < n) {
    letters = Buffer.alloc(Math.max(n, letters.length * 2));
    skeletonBytes = Buffer.alloc(2 * letters.length);
  }
  let changed = false;
  let kept = 0;
  let previous = 0;
  // The code units at i and i + 1, as in `plain` and after the homoglyph mapping (0 past the end).
  const units = plainUnits.of(plain);
  let currentUnit = units[0]!;
  let current = mapped(currentUnit);
  for (let i = 0; i < n; i++) {
    const nextUnit = units[i + 1]!;
    const next = mapped(nextUnit);
    let c = current;
    // The leetspeak test reads the homoglyph-mapped neighbours, not the already replaced ones.
    if (c < 0x80 && LEET_TABLE[c]! !== 0 && (isLatinLower(previous) || isLatinLower(next)))
      c = LEET_TABLE[c]!;
    skeletonBytes[2 * i] = c & 0xff;
    skeletonBytes[2 * i + 1] = c >> 8;
    // Written always and kept only for a letter: a branch here is mispredicted at most word ends.
    letters[kept] = c;
    kept += isLatinLowerBit(c);
    if (c !== currentUnit) changed = true;
    previous = current;
    current = next;
    currentUnit = nextUnit;
  }
  const skeleton = changed ? skeletonBytes.toString('utf16le', 0, 2 * n) : plain;
  // A skeleton of letters only is its own squashed view.
  return { skeleton, squashed: kept === n ? skeleton : letters.toString('latin1', 0, kept) };
}
