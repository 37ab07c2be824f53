/**
 * The texts the classifier scores for one field: the normalised text, its disguise-free skeleton
 * (look-alike letters and leetspeak mapped back), the ASCII hidden in Unicode tag characters, every
 * encoded payload (base64, hex, escapes, percent, HTML references) decoded once, and the ROT13 reading
 * when it reads as more English than the text itself. The highest-scoring view decides, so an attack
 * is seen in whichever form it is readable. Every view has its long runs of one character shortened
 * and its phrases said three or more times in a row kept once (runs.ts).
 */
import { type PreparedText, prepareText } from '../scan.js';
import { commonWordCounts, rot13 } from './common-words.js';
import { collapseRepeatedPhrases, collapseRuns } from './runs.js';

export { COMMON_WORDS } from './common-words.js';

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
  for (const view of out) view.text = collapseRepeatedPhrases(collapseRuns(view.text));
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
