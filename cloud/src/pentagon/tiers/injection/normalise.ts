/**
 * Text normalisation for injection screening. Attackers hide instructions from pattern rules with
 * full-width letters, look-alike Cyrillic/Greek letters, invisible characters, Unicode tag characters,
 * leetspeak and letter spacing (`i g n o r e`); every rule therefore runs on views of the text in which
 * those disguises are undone. The views are only for matching: nothing here changes what is executed.
 */

import { collapseBlanks } from './blanks.js';
import { countMixedScriptWords } from './mixed-script.js';
import { disguisesUndone } from './skeleton.js';

/** Invisible characters that split words without showing (ZWSP, ZWNJ, word joiner, BOM, Mongolian VS…). */
const INVISIBLE = /[\u00ad\u180e\u200b\u200c\u2060-\u2064\ufeff]/g;
/** ZWJ is legitimate inside emoji sequences; between two letters it only hides a word. */
const ZWJ_BETWEEN_LETTERS = /(?<=[A-Za-z])\u200d(?=[A-Za-z])/g;
/** Bidirectional overrides and isolates (the "Trojan Source" characters, CVE-2021-42574). */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;
/** Unicode tag characters U+E0000..U+E007F mirror ASCII invisibly ("ASCII smuggling"). */
const TAGS = /[\u{e0000}-\u{e007f}]/gu;

/**
 * The only `\s` characters a view (plain, skeleton, squashed) can hold: blank collapsing turns every other
 * blank and line break into one of these, and the invisible ones (U+FEFF) are removed before it. Anchors
 * written for a rule's `\s` list just these (rules/inner-anchors.ts); test/pentagon/injection-fast-paths
 * .test.ts checks every code point.
 */
export const VIEW_BLANKS = ' \n';

export interface TextViews {
  /** NFKC, invisible characters removed, lower case, runs of blanks collapsed (newlines kept). */
  plain: string;
  /** `plain` with look-alike letters and leetspeak mapped to Latin (English rules run here too). */
  skeleton: string;
  /** Letters only, for spaced-out or dotted words (`i.g.n.o.r.e`). */
  squashed: string;
  /** ASCII recovered from Unicode tag characters ("" when none). */
  tagText: string;
  invisibleCount: number;
  bidiCount: number;
  /** RLO/LRO (U+202D/U+202E): display-reversing overrides, a subset of `bidiCount`. */
  bidiOverrideCount: number;
  /** Words mixing Latin with Cyrillic or Greek letters (a homoglyph disguise). */
  mixedScriptWords: number;
}

/**
 * Printable ASCII, tabs and line breaks only: no tags, invisible, bidi, non-Latin or full-width
 * characters. (Most multi-line fields are such text; collapseBlanks handles the breaks the same way
 * on both paths.)
 */
const PRINTABLE_ASCII = /^[\t\n\r\x20-\x7e]*$/;

export function textViews(raw: string): TextViews {
  return PRINTABLE_ASCII.test(raw) ? asciiTextViews(raw) : fullTextViews(raw);
}

/** `textViews` of printable ASCII (exported for the test that checks it equals `fullTextViews`). */
export function asciiTextViews(raw: string): TextViews {
  // Most fields. For them NFKC is the identity and every removal and count in fullTextViews finds
  // nothing, so only lower-casing, blank collapsing and the leetspeak mapping can change the text.
  const plain = collapseBlanks(raw.toLowerCase());
  const { skeleton, squashed } = disguisesUndone(plain);
  return {
    plain,
    skeleton,
    squashed,
    tagText: '',
    invisibleCount: 0,
    bidiCount: 0,
    bidiOverrideCount: 0,
    mixedScriptWords: 0,
  };
}

/**
 * Code units of the tag, invisible, ZWJ and bidi characters: U+E0000..U+E007F (tags) are 0xDB40 followed
 * by 0xDC00..0xDC7F. Without the `u` flag the class matches code units, lone surrogates too.
 */
const HIDDEN_UNIT = /[\u00ad\u180e\u200b-\u200d\u202a-\u202e\u2060-\u2069\ufeff\udb40]/;

/**
 * Whether `raw` may hold a tag, invisible, ZWJ or bidi character (the ones fullTextViews counts and
 * removes). Conservative: any high surrogate of the tag block and the unassigned U+2065 answer yes too.
 * One test of a class of units: V8's compiled pattern reads a KiB in a quarter of the time a loop over
 * `charCodeAt` takes.
 */
export function mayHoldHiddenCharacters(raw: string): boolean {
  return HIDDEN_UNIT.test(raw);
}

/** `textViews` of any text: every disguise undone and counted. */
export function fullTextViews(raw: string): TextViews {
  const { nfkc, ...hidden } = mayHoldHiddenCharacters(raw)
    ? hiddenCharactersRemoved(raw)
    : // Nothing to count or remove, and NFKC makes none of these characters (no character decomposes
      // to one, and composing makes letters and symbols): test/pentagon/injection-fast-paths.test.ts
      // checks every code point.
      { nfkc: raw.normalize('NFKC'), tagText: '', invisibleCount: 0, bidiCount: 0, bidiOverrideCount: 0 };
  const plain = collapseBlanks(nfkc.toLowerCase());
  const mixedScriptWords = countMixedScriptWords(plain);
  const { skeleton, squashed } = disguisesUndone(plain);
  return { plain, skeleton, squashed, ...hidden, mixedScriptWords };
}

/** NFKC of `raw` without tag, invisible and bidi characters (nor ZWJ between letters), and their counts. */
function hiddenCharactersRemoved(raw: string): {
  nfkc: string;
  tagText: string;
  invisibleCount: number;
  bidiCount: number;
  bidiOverrideCount: number;
} {
  let tagText = '';
  const withoutTags = raw.replace(TAGS, (ch) => {
    const cp = ch.codePointAt(0)! - 0xe0000;
    if (cp >= 0x20 && cp < 0x7f) tagText += String.fromCharCode(cp);
    return '';
  });
  // The ZWJ pattern looks behind at every position; most text has no ZWJ at all (and NFKC makes none).
  const hasZwj = withoutTags.includes('\u200d');
  const invisibleCount =
    (withoutTags.match(INVISIBLE)?.length ?? 0) +
    (hasZwj ? (withoutTags.match(ZWJ_BETWEEN_LETTERS)?.length ?? 0) : 0);
  const bidiCount = withoutTags.match(BIDI)?.length ?? 0;
  const bidiOverrideCount = withoutTags.match(/[\u202d\u202e]/g)?.length ?? 0;
  const normalised = withoutTags.normalize('NFKC').replace(INVISIBLE, '');
  const nfkc = (hasZwj ? normalised.replace(ZWJ_BETWEEN_LETTERS, '') : normalised).replace(BIDI, '');
  return { nfkc, tagText, invisibleCount, bidiCount, bidiOverrideCount };
}
