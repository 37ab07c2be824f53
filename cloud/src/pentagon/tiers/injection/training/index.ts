/**
 * Training and measurement of the injection classifier (used by `npm run train:injection` and by the
 * `injection` benchmark; the gate itself only loads the weights this produces).
 */
export { readBank, stringSeed } from './bank.js';
export { type CorpusRow, corpusRows, generateRows, sourceOf, templateSplit } from './generate.js';
export {
  isNearCopy,
  MEASURED_ONLY_SOURCES,
  NEAR_COPY_CHECKED_SOURCES,
  type PublicRow,
  publicRows,
  publicSplit,
  readPublicRows,
  wordShingles,
} from './public.js';
export { DEFAULT_TRAIN_OPTIONS, type TrainOptions, train } from './train.js';
export { outOfFoldScores } from './out-of-fold.js';
export {
  type QualityReport,
  qualityReport,
  recallAtFalsePositiveRate,
  scoreRows,
  thresholdForFalsePositiveRate,
} from './evaluate.js';
