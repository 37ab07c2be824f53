#!/usr/bin/env node
/**
 * `npm run train:injection`: generates the corpus from cloud/corpus/injection, trains the classifier on
 * the training templates, picks the threshold on out-of-fold scores of the training rows (1 % false
 * positives there), and writes cloud/models/injection-classifier.bin with the measured figures beside it
 * (injection-classifier.metrics.json). Deterministic: the same corpus gives the same bytes.
 * Runs from cloud/dist, so `npm run build` first (the npm script does).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cloud = new URL('../', import.meta.url);
const training = await import(new URL('dist/pentagon/tiers/injection/training/index.js', cloud).href);
const classifier = await import(new URL('dist/pentagon/tiers/injection/classifier/index.js', cloud).href);

/**
 * The threshold is chosen on scores the model did not train on: three folds of the training TEMPLATES,
 * each scored by a model fitted on the other two; the threshold flags this share of their benign rows.
 * (In-sample scores separate perfectly and would say nothing about unseen phrasing.)
 */
const OUT_OF_FOLD_FALSE_POSITIVE_RATE = 0.01;
const FOLDS = 3;
const started = performance.now();
const rows = training.corpusRows(fileURLToPath(new URL('corpus/injection/', cloud)));
const trainRows = rows.filter((r) => r.split === 'train');
const heldoutRows = rows.filter((r) => r.split === 'heldout');
const count = (rs, label) => rs.filter((r) => r.label === label).length;
console.error(
  `corpus: ${rows.length} rows; train ${count(trainRows, 'attack')} attacks / ${count(trainRows, 'benign')} benign; ` +
    `held out ${count(heldoutRows, 'attack')} / ${count(heldoutRows, 'benign')}`,
);

const outOfFold = training.outOfFoldScores(trainRows, training.DEFAULT_TRAIN_OPTIONS, FOLDS);
const outOfFoldReport = training.qualityReport(outOfFold, 0.5);
const fitted = training.train(trainRows, training.DEFAULT_TRAIN_OPTIONS);
// Measure the quantised weights: those are what ships.
const quantised = classifier.decodeModel(classifier.encodeModel(fitted), 'trained model');
quantised.threshold = training.thresholdForFalsePositiveRate(outOfFold, OUT_OF_FOLD_FALSE_POSITIVE_RATE);
const bytes = classifier.encodeModel(quantised);
const shipped = classifier.decodeModel(bytes, 'trained model');

const inSample = training.qualityReport(training.scoreRows(trainRows, shipped), shipped.threshold);
const heldout = training.qualityReport(training.scoreRows(heldoutRows, shipped), shipped.threshold);
const modelPath = fileURLToPath(new URL('models/injection-classifier.bin', cloud));
writeFileSync(modelPath, bytes);
const metrics = {
  options: training.DEFAULT_TRAIN_OPTIONS,
  threshold: shipped.threshold,
  rows: {
    trainAttacks: count(trainRows, 'attack'),
    trainBenign: count(trainRows, 'benign'),
    heldoutAttacks: count(heldoutRows, 'attack'),
    heldoutBenign: count(heldoutRows, 'benign'),
  },
  inSample,
  outOfFold: {
    recallAtFpr1: outOfFoldReport.recallAtFpr1,
    recallAtFpr2: outOfFoldReport.recallAtFpr2,
    recallAtFpr5: outOfFoldReport.recallAtFpr5,
  },
  heldout,
};
writeFileSync(
  fileURLToPath(new URL('models/injection-classifier.metrics.json', cloud)),
  `${JSON.stringify(metrics, (_k, v) => (typeof v === 'number' ? Math.round(v * 1e4) / 1e4 : v), 2)}\n`,
);
const pct = (x) => `${(x * 100).toFixed(1)} %`;
for (const [name, r] of [
  ['in-sample', inSample],
  ['out-of-fold (threshold 0.5)', outOfFoldReport],
  ['held-out', heldout],
]) {
  console.error(
    `${name}: recall ${pct(r.overall.recall)} at FP ${pct(r.overall.falsePositiveRate)} (threshold ${r.threshold}); ` +
      `recall at 1 % FP ${pct(r.recallAtFpr1)}, at 2 % ${pct(r.recallAtFpr2)}, at 5 % ${pct(r.recallAtFpr5)}`,
  );
}
console.error(
  `wrote ${modelPath} (${bytes.length} bytes) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
