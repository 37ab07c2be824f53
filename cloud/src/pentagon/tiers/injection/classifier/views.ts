/**
 * The texts the classifier scores for one field: the normalised text, its disguise-free skeleton
 * (look-alike letters and leetspeak mapped back), the ASCII hidden in Unicode tag characters, every
 * encoded payload (base64, hex, escapes, percent, HTML references) decoded once, and the ROT13 reading
 * when it reads as more English than the text itself. The highest-scoring view decides, so an attack
 * is seen in whichever form it is readable. Every view has its long runs of one character shortened
 * (runs.ts).
 */
import { type PreparedText, prepareText } from '../scan.js';
import { collapseRuns } from './runs.js';

/** Texts shorter than this carry no sentence to score (identifiers, amounts, flags). */
export const MIN_CLASSIFIED_CHARS = 12;

export type ClassifierViewKind =
  | 'text'
  | 'skeleton'
  | 'unicode-tags'
  | 'rot13'
  | 'base64'
  | 'hex'
  | 'escapes'
  | 'percent'
  | 'html-entities';

export interface ClassifierView {
  kind: ClassifierViewKind;
  text: string;
}

function rot13(text: string): string {
  const out = new Array<string>(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[i] = c >= 0x61 && c <= 0x7a ? String.fromCharCode(((c - 0x61 + 13) % 26) + 0x61) : text[i]!;
  }
  return out.join('');
}

/** Frequent English words: ROT13 of English text contains few of them, ROT13 of ROT13 text many. */
export const COMMON_WORDS: readonly string[] =
  'the and you your all to of is are be this that with for now any previous instructions ignore system prompt not do from'.split(
    ' ',
  );
const MAX_COMMON_CHARS = Math.max(...COMMON_WORDS.map((w) => w.length));
/**
 * Words by length and first letter (`[length × 26 + letter]`), so a word of the text is compared only
 * with the one or two of its own length that start with its letter.
 */
function byLengthAndLetter(words: readonly string[]): readonly (readonly string[])[] {
  const index = Array.from({ length: (MAX_COMMON_CHARS + 1) * 26 }, () => [] as string[]);
  for (const w of words) index[w.length * 26 + (w.charCodeAt(0) - 0x61)]!.push(w);
  return index;
}
const COMMON = byLengthAndLetter(COMMON_WORDS);
/**
 * The ROT13 forms of the common words. ROT13 maps each run of a–z to a run of a–z at the same place,
 * so the common words of rot13(text) are exactly the words of text found here: the turned text is
 * built only when it is scored.
 */
const TURNED_COMMON = byLengthAndLetter(COMMON_WORDS.map(rot13));

/**
 * How many words of `text` (runs of a–z) are common words, and how many are common words turned by
 * ROT13, in one pass and without slicing the words out.
 */
function commonWordCounts(text: string): { own: number; turned: number } {
  let own = 0;
  let turned = 0;
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    const letter = c >= 0x61 && c <= 0x7a;
    if (letter && start < 0) start = i;
    else if (!letter && start >= 0) {
      const length = i - start;
      if (length <= MAX_COMMON_CHARS) {
        const slot = length * 26 + (text.charCodeAt(start) - 0x61);
        if (isOneOf(text, start, COMMON[slot]!)) own++;
        if (isOneOf(text, start, TURNED_COMMON[slot]!)) turned++;
      }
      start = -1;
    }
  }
  return { own, turned };
}

/** Whether `text` has one of `words` at `start` (a loop, not `some` with a closure: this runs per word). */
function isOneOf(text: string, start: number, words: readonly string[]): boolean {
  for (let k = 0; k < words.length; k++) if (text.startsWith(words[k]!, start)) return true;
  return false;
}

export function classifierViews(raw: string, prepared: PreparedText = prepareText(raw)): ClassifierView[] {
  const { views, tagViews, payloads } = prepared;
  const out: ClassifierView[] = [{ kind: 'text', text: views.plain }];
  if (views.skeleton !== views.plain && (views.mixedScriptWords > 0 || hasLeet(views.plain))) {
    out.push({ kind: 'skeleton', text: views.skeleton });
  }
  if (tagViews !== undefined) out.push({ kind: 'unicode-tags', text: tagViews.plain });
  // ROT13 of English has few common words; text with many of its own is read as it is.
  const common = commonWordCounts(views.plain);
  if (common.own * 20 < views.plain.length && /[a-z]{4}/.test(views.plain)) {
    if (common.turned >= common.own + 2) out.push({ kind: 'rot13', text: rot13(views.plain) });
  }
  for (const payload of payloads) out.push({ kind: payload.encoding, text: payload.views.plain });
  for (const view of out) view.text = collapseRuns(view.text);
  // a view left shorter than a sentence (a run of one character, an identifier) has nothing to score
  return out.filter((view) => view.text.length >= MIN_CLASSIFIED_CHARS);
}

/**
 * Whether a digit or symbol stands for a letter inside a word (`1gn0re`), the leetspeak the skeleton
 * undoes. (Only whether there is one matters, so the first is enough; the text is not searched when a
 * mixed-script word already decided.)
 */
function hasLeet(plain: string): boolean {
  return /[a-z][013457@$][a-z]/.test(plain);
}
