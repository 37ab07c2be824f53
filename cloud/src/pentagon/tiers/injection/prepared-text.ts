/**
 * A field's normalised views and decoded payloads, computed once per field and shared by the rules and
 * the classifier: normalising is the larger part of either stage's cost, and each decoded payload and
 * the text hidden in Unicode tag characters are normalised here once rather than by each stage.
 */
import { type CommonWordCounts, commonWordCounts } from './classifier/common-words.js';
import { type DecodedPayload, decodePayloads, MAX_DECODED_CANDIDATES } from './decode.js';
import { type TextViews, textViews } from './normalise.js';
import { reversedReading } from './reversal.js';

export interface PreparedPayload extends DecodedPayload {
  /** The decoded text's views (the rules and the classifier both read them). */
  views: TextViews;
}

export interface PreparedText {
  views: TextViews;
  /** Views of the ASCII hidden in Unicode tag characters; undefined when there is none. */
  tagViews: TextViews | undefined;
  payloads: PreparedPayload[];
  /** Common English words in the plain view, as they are, turned by ROT13 and backwards. */
  common: CommonWordCounts;
}

export function prepareText(raw: string): PreparedText {
  const views = textViews(raw);
  const common = commonWordCounts(views.plain);
  const decoded = decodePayloads(raw);
  // Read backwards, the text is one more payload: both stages read it as they read a decoded one.
  const reversed = reversedReading(views.plain, common);
  if (reversed !== undefined && decoded.length < MAX_DECODED_CANDIDATES)
    decoded.push({ encoding: 'reversed', text: reversed });
  return {
    views,
    tagViews: views.tagText.length > 0 ? textViews(views.tagText) : undefined,
    payloads: decoded.map((p) => ({ ...p, views: textViews(p.text) })),
    common,
  };
}
