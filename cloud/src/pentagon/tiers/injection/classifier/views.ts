/**
 * The texts the classifier scores for one field: the normalised text, its disguise-free skeleton
 * (look-alike letters and leetspeak mapped back), the ASCII hidden in Unicode tag characters, every
 * encoded payload (base64, base32, hex, escapes, percent, HTML references; through up to three layers),
 * the text read backwards when it reads as reversed English, and the ROT13 reading
 * when it reads as more English than the text itself. The highest-scoring view decides, so an attack
 * is seen in whichever form it is readable. Every view has its long runs of one character shortened
 * and its phrases said three or more times in a row kept once (runs.ts).
 */
import { HEX_UNITS } from '../decode.js';
import { type PreparedText, prepareText } from '../scan.js';
import { rot13 } from './common-words.js';
import { MAX_WORD_CHARS } from './features.js';
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
  | 'base32'
  | 'hex'
  | 'escapes'
  | 'percent'
  | 'html-entities'
  | 'reversed';

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
  const common = prepared.common;
  if (common.own * 20 < views.plain.length && /[a-z]{4}/.test(views.plain)) {
    if (common.turned >= common.own + 2) out.push({ kind: 'rot13', text: rot13(views.plain) });
  }
  for (const payload of payloads) out.push({ kind: payload.encoding, text: payload.views.plain });
  for (const view of out) view.text = collapseRepeatedPhrases(collapseRuns(view.text));
  // a view left shorter than a sentence (a run of one character, an identifier) has nothing to score
  return out.filter((view) => view.text.length >= MIN_CLASSIFIED_CHARS);
}

/** A leetspeak stand-in for a letter between two letters (skeleton.ts maps it back). */
const LEET_BETWEEN_LETTERS = /[a-z][013457@$][a-z]/g;
/** What follows the `@` of an e-mail address: a domain name with a dot (RFC 5321 §4.1.2). */
const EMAIL_DOMAIN = /[a-z0-9-]+\.[a-z]{2}/y;

/**
 * Whether a digit or symbol stands for a letter between two letters of a word (`1gn0re`, `pl3ase`), the
 * leetspeak the skeleton undoes. Only whether there is one matters, so the first is enough; the text is not
 * searched when a mixed-script word already decided.
 *
 * Three kinds of token only look like leetspeak and are passed over: an e-mail address's `@`
 * (`it-support@corp-help.org`), hex numbers and digests (`7f3a`, `d4e5f607`) and tokens longer than a word
 * feature (`MAX_WORD_CHARS`: base64, keys). Each made the skeleton a second full view of the field, a copy of
 * the text with its address or digest spelled differently, which doubled the classifier's work: 572 of 2,000
 * held-out 1 KiB fields had a skeleton for no other reason.
 */
export function hasLeet(plain: string): boolean {
  const candidates = LEET_BETWEEN_LETTERS;
  candidates.lastIndex = 0;
  for (let match = candidates.exec(plain); match !== null; match = candidates.exec(plain)) {
    const at = match.index + 1;
    // the token around the stand-in: a run of letters, digits and stand-ins
    let start = at - 1;
    while (start > 0 && isTokenUnit(plain.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < plain.length && isTokenUnit(plain.charCodeAt(end))) end++;
    if (end - start > MAX_WORD_CHARS || isHex(plain, start, end)) {
      candidates.lastIndex = end;
      continue;
    }
    // candidates may overlap (`a1b2c`): the next one can start at this one's second letter
    candidates.lastIndex = at + 1;
    if (plain.charCodeAt(at) === 0x40) {
      EMAIL_DOMAIN.lastIndex = at + 1;
      if (EMAIL_DOMAIN.test(plain)) continue;
    }
    return true;
  }
  return false;
}

/** a–z, 0–9, `@` or `$`: what a leetspeak word is written with. */
function isTokenUnit(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x40 || c === 0x24;
}

/** Whether plain[start, end) is all hex digits (a number or a digest); its units are ASCII (isTokenUnit). */
function isHex(plain: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (HEX_UNITS[plain.charCodeAt(i)] !== 1) return false;
  return true;
}
