/**
 * A field's normalised views and decoded payloads, computed once per field and shared by the rules and
 * the classifier: normalising is the larger part of either stage's cost, and each decoded payload and
 * the text hidden in Unicode tag characters are normalised here once rather than by each stage.
 */
import { type DecodedPayload, decodePayloads } from './decode.js';
import { type TextViews, textViews } from './normalise.js';

export interface PreparedPayload extends DecodedPayload {
  /** The decoded text's views (the rules and the classifier both read them). */
  views: TextViews;
}

export interface PreparedText {
  views: TextViews;
  /** Views of the ASCII hidden in Unicode tag characters; undefined when there is none. */
  tagViews: TextViews | undefined;
  payloads: PreparedPayload[];
}

export function prepareText(raw: string): PreparedText {
  const views = textViews(raw);
  return {
    views,
    tagViews: views.tagText.length > 0 ? textViews(views.tagText) : undefined,
    payloads: decodePayloads(raw).map((p) => ({ ...p, views: textViews(p.text) })),
  };
}
