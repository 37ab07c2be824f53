/**
 * Text written backwards (".snoitcurtsni suoiverp lla erongI"): a model reads it, a pattern does not, and the
 * outside review's reversed instruction passed both stages. A text is read backwards too when more of its
 * words are common English words spelled backwards than its own common words would explain
 * (common-words.ts counts only backwards spellings that are no words themselves: not "won", "era"), so
 * the bar rises with the text's own count; a reversed sentence inside English prose still clears it
 * when it is more than a phrase.
 */
import type { CommonWordCounts } from './classifier/common-words.js';

/** The text read backwards (by code point, so surrogate pairs stay whole), when it reads as reversed English. */
export function reversedReading(plain: string, common: CommonWordCounts): string | undefined {
  if (common.reversed < 3 + Math.floor(common.own / 4)) return undefined;
  return Array.from(plain).reverse().join('');
}
