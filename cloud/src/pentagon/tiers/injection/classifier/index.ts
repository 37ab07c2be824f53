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

/**
 * The view and window of a field that score highest, before its passage is cut: the screen cuts a
 * passage only for the field that decides, and only when it refuses (cutting and cleaning one for every
 * field was most of classifyText's own time in a profile of the held-out fields).
 */
export interface ClassifierWinner {
  probability: number;
  view: ClassifierViewKind;
  /** The view's text and the [start, end) of its heaviest passage. */
  text: string;
  passageStart: number;
  passageEnd: number;
}

/** `prepared`: the field's views as the rules computed them (computed here when absent). Undefined when
 * no view is left to score (the field or every collapsed view is shorter than MIN_CLASSIFIED_CHARS), which
 * reads as probability 0. */
export function classifierWinner(
  raw: string,
  model: InjectionModel = bundledModel(),
  prepared?: PreparedText,
): ClassifierWinner | undefined {
  if (raw.length < MIN_CLASSIFIED_CHARS) return undefined;
  let best: ClassifierWinner | undefined;
  let bestLogit = Number.NEGATIVE_INFINITY;
  for (const view of classifierViews(raw, prepared)) {
    const s = scoreText(view.text, model);
    if (s.logit > bestLogit) {
      bestLogit = s.logit;
      best = {
        probability: 0,
        view: view.kind,
        text: view.text,
        passageStart: s.passageStart,
        passageEnd: s.passageEnd,
      };
    }
  }
  if (best !== undefined) best.probability = Math.round(logistic(bestLogit) * 1e6) / 1e6;
  return best;
}

/** The winning passage, cut and made safe to quote ("" when there is no winner). */
export function winningPassage(winner: ClassifierWinner | undefined): string {
  return winner
    ? oneLine(winner.text.slice(winner.passageStart, winner.passageEnd), PASSAGE_EXCERPT_CHARS)
    : '';
}

/** `prepared`: the field's views as the rules computed them (computed here when absent). */
export function classifyText(
  raw: string,
  model: InjectionModel = bundledModel(),
  prepared?: PreparedText,
): ClassifierVerdict {
  const winner = classifierWinner(raw, model, prepared);
  return {
    probability: winner?.probability ?? 0,
    view: winner?.view ?? 'text',
    passage: winningPassage(winner),
  };
}
