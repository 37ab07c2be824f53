/**
 * Out-of-fold scores: the training rows split into folds by their template (a public row's template is its
 * group, public.ts), each fold scored by a model fitted on the others. The shipped threshold is chosen on
 * these (cloud/scripts/train-injection.mjs), and training options are compared on them
 * (cloud/scripts/injection-tune.mjs): scores of rows the model did not train on, without the held-out split.
 */
import { stringSeed } from './bank.js';
import { type ScoredRow, scoreRows } from './evaluate.js';
import type { CorpusRow } from './generate.js';
import { type TrainOptions, train } from './train.js';

export function outOfFoldScores(
  rows: readonly CorpusRow[],
  options: TrainOptions,
  folds: number,
): ScoredRow[] {
  const foldOf = (row: CorpusRow) => stringSeed(row.template) % folds;
  const scored: ScoredRow[] = [];
  for (let fold = 0; fold < folds; fold++) {
    const model = train(
      rows.filter((r) => foldOf(r) !== fold),
      options,
    );
    scored.push(
      ...scoreRows(
        rows.filter((r) => foldOf(r) === fold),
        model,
      ),
    );
  }
  return scored;
}
