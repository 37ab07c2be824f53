/**
 * Trains the classifier: logistic regression over the hashed features (features.ts), fitted with
 * AdaGrad (Duchi et al. 2011) and a small L2 penalty, deterministic for a given corpus and seed.
 *
 * Each row becomes instances exactly as the scorer sees it: every view of the row (views.ts), every
 * window of every view (score.ts). A benign row must score low in every instance, so each is a negative
 * example. An attack row needs only one instance that fires (the injected paragraph of a long email,
 * the decoded form of a base64 payload), so each epoch only its currently highest instance is a
 * positive example — multiple-instance learning; teaching the model that the raw base64 of an attack or
 * the harmless paragraphs around it are themselves attacks would only make it flag benign text.
 */
import { extractFeatures, FeatureBuffer } from '../classifier/features.js';
import type { InjectionModel } from '../classifier/model.js';
import { windowScales } from '../classifier/score.js';
import { classifierViews } from '../classifier/views.js';
import { seededRandom } from './bank.js';
import type { CorpusRow } from './generate.js';

export interface TrainOptions {
  bits: number;
  windowChars: number;
  strideChars: number;
  epochs: number;
  learningRate: number;
  l2: number;
  seed: number;
  /**
   * Weight of a public row (text of other authors, `CorpusRow.source`) against a generated one (1).
   * Unset (1) by default: 2 and 4 were no better out of fold (cloud/scripts/injection-tune.mjs).
   */
  publicWeight?: number;
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = {
  bits: 18,
  windowChars: 384,
  strideChars: 96,
  epochs: 8,
  learningRate: 0.2,
  l2: 1e-6,
  seed: 20_240_611,
};

/** One scored unit: the distinct slots of a window with their counts, and 1/√(feature count). */
interface Instance {
  slots: Int32Array;
  counts: Float32Array;
  norm: number;
}

interface Example {
  attack: boolean;
  weight: number;
  instances: Instance[];
}

const features = new FeatureBuffer();

function windowsOf(text: string, o: TrainOptions): Instance[] {
  extractFeatures(text, o.bits, features);
  const { slots, offsets, length } = features;
  const out: Instance[] = [];
  for (const scale of windowScales(o.windowChars, o.strideChars)) {
    for (let start = 0; ; start += scale.strideChars) {
      const end = Math.min(text.length, start + scale.windowChars);
      const counts = new Map<number, number>();
      let total = 0;
      for (let k = 0; k < length; k++) {
        if (offsets[k]! < start || offsets[k]! >= end) continue;
        counts.set(slots[k]!, (counts.get(slots[k]!) ?? 0) + 1);
        total++;
      }
      if (total > 0) {
        out.push({
          slots: Int32Array.from(counts.keys()),
          counts: Float32Array.from(counts.values()),
          norm: 1 / Math.sqrt(total),
        });
      }
      if (end >= text.length) break;
    }
  }
  return out;
}

export function examplesOf(rows: readonly CorpusRow[], o: TrainOptions): Example[] {
  return rows.map((row) => ({
    attack: row.label === 'attack',
    weight: row.source === undefined ? 1 : (o.publicWeight ?? 1),
    instances: classifierViews(row.text).flatMap((v) => windowsOf(v.text, o)),
  }));
}

function logitOf(inst: Instance, weights: Float32Array, bias: number): number {
  let sum = 0;
  for (let i = 0; i < inst.slots.length; i++) sum += weights[inst.slots[i]!]! * inst.counts[i]!;
  return bias + sum * inst.norm;
}

export function train(rows: readonly CorpusRow[], o: TrainOptions = DEFAULT_TRAIN_OPTIONS): InjectionModel {
  const examples = examplesOf(rows, o).filter((e) => e.instances.length > 0);
  const size = 1 << o.bits;
  const weights = new Float32Array(size);
  const gradSq = new Float32Array(size);
  let bias = 0;
  let biasGradSq = 0;
  const attacks = examples.filter((e) => e.attack).reduce((n, e) => n + e.weight, 0);
  const benignInstances = examples
    .filter((e) => !e.attack)
    .reduce((n, e) => n + e.weight * e.instances.length, 0);
  // Balance the classes: attack rows and benign instances carry equal total weight.
  const attackWeight = benignInstances / Math.max(1, attacks);
  const random = seededRandom(o.seed);
  const order = examples.map((_, i) => i);
  const step = (inst: Instance, target: number, weight: number) => {
    const p = 1 / (1 + Math.exp(-logitOf(inst, weights, bias)));
    const g = (p - target) * weight;
    for (let i = 0; i < inst.slots.length; i++) {
      const s = inst.slots[i]!;
      const gs = g * inst.counts[i]! * inst.norm + o.l2 * weights[s]!;
      gradSq[s]! += gs * gs;
      weights[s]! -= (o.learningRate * gs) / Math.sqrt(gradSq[s]! + 1e-8);
    }
    biasGradSq += g * g;
    bias -= (o.learningRate * g) / Math.sqrt(biasGradSq + 1e-8);
  };
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    // Fisher–Yates with the seeded generator: the same order on every run.
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const index of order) {
      const example = examples[index]!;
      if (!example.attack) {
        for (const inst of example.instances) step(inst, 0, example.weight);
        continue;
      }
      if (epoch === 0) {
        // No model yet to say which instance carries the attack: the first pass spreads over all.
        for (const inst of example.instances) {
          step(inst, 1, (example.weight * attackWeight) / example.instances.length);
        }
        continue;
      }
      let best = example.instances[0]!;
      let bestLogit = Number.NEGATIVE_INFINITY;
      for (const inst of example.instances) {
        const l = logitOf(inst, weights, bias);
        if (l > bestLogit) {
          bestLogit = l;
          best = inst;
        }
      }
      step(best, 1, example.weight * attackWeight);
    }
  }
  return {
    bits: o.bits,
    weights,
    bias,
    threshold: 0.5,
    windowChars: o.windowChars,
    strideChars: o.strideChars,
  };
}
