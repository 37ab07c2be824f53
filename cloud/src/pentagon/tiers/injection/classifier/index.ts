/**
 * The classifier stage of the injection screen: every view of a field (views.ts) is scored window by
 * window (score.ts) with the bundled linear model (model.ts); the field's probability is that of its
 * highest window, and the passage that window names is what a remediation tells the caller to remove.
 */
import { oneLine } from '../../../one-line.js';
import type { PreparedText } from '../scan.js';
import { type InjectionModel, bundledModel } from './model.js';
import { logistic, scoreText } from './score.js';
import { type ClassifierViewKind, MIN_CLASSIFIED_CHARS, classifierViews } from './views.js';

export { MIN_CLASSIFIED_CHARS } from './views.js';

export type { InjectionModel } from './model.js';
export { bundledModel, decodeModel, encodeModel } from './model.js';
export type { ClassifierViewKind } from './views.js';

const PASSAGE_EXCERPT_CHARS = 200;

export interface ClassifierVerdict {
  /** Probability that the field carries an injection, 0..1 (its highest window over all views). */
  probability: number;
  /** Which view of the field scored highest. */
  view: ClassifierViewKind;
  /** The heaviest passage of the highest window, in the view's normalised form. */
  passage: string;
}

/** `prepared`: the field's views as the rules computed them (computed here when absent). */
export function classifyText(
  raw: string,
  model: InjectionModel = bundledModel(),
  prepared?: PreparedText,
): ClassifierVerdict {
  if (raw.length < MIN_CLASSIFIED_CHARS) return { probability: 0, view: 'text', passage: '' };
  // The winning view and window; its passage is cut and cleaned once, at the end, not for every view
  // that was the best so far.
  let best: { kind: ClassifierViewKind; text: string; passageStart: number; passageEnd: number } | undefined;
  let bestLogit = Number.NEGATIVE_INFINITY;
  for (const view of classifierViews(raw, prepared)) {
    const s = scoreText(view.text, model);
    if (s.logit > bestLogit) {
      bestLogit = s.logit;
      best = { kind: view.kind, text: view.text, passageStart: s.passageStart, passageEnd: s.passageEnd };
    }
  }
  return {
    probability: best ? Math.round(logistic(bestLogit) * 1e6) / 1e6 : 0,
    view: best?.kind ?? 'text',
    passage: best ? oneLine(best.text.slice(best.passageStart, best.passageEnd), PASSAGE_EXCERPT_CHARS) : '',
  };
}
