/**
 * Quality figures of the classifier on labelled rows, computed with the scorer the gate runs
 * (`classifyText`, quantised weights, every view and window): recall at a fixed false-positive rate,
 * and recall and false-positive rate at the model's threshold, overall, per language and per family.
 */
import { classifyText, type InjectionModel } from '../classifier/index.js';
import { type CorpusRow, sourceOf } from './generate.js';

export interface ScoredRow {
  row: CorpusRow;
  probability: number;
}

export interface GroupFigures {
  attacks: number;
  benign: number;
  /** Recall at the model threshold (NaN without attacks). */
  recall: number;
  /** False-positive rate at the model threshold (NaN without benign rows). */
  falsePositiveRate: number;
}

export interface QualityReport {
  threshold: number;
  overall: GroupFigures;
  /** Recall when the threshold is set so that at most 1 % / 2 % / 5 % of benign rows are flagged. */
  recallAtFpr1: number;
  recallAtFpr2: number;
  recallAtFpr5: number;
  byLanguage: Record<string, GroupFigures>;
  byFamily: Record<string, GroupFigures>;
  byDisguise: Record<string, GroupFigures>;
  byCarrier: Record<string, GroupFigures>;
  /** Per source: `synthetic`, `repository`, or the public source's name (public.ts). */
  bySource: Record<string, GroupFigures>;
}

export function scoreRows(rows: readonly CorpusRow[], model: InjectionModel): ScoredRow[] {
  return rows.map((row) => ({ row, probability: classifyText(row.text, model).probability }));
}

/** Recall when the threshold is the lowest that flags at most `fpr` of the benign rows. */
export function recallAtFalsePositiveRate(scored: readonly ScoredRow[], fpr: number): number {
  const benign = scored
    .filter((s) => s.row.label === 'benign')
    .map((s) => s.probability)
    .sort((a, b) => b - a);
  const attacks = scored.filter((s) => s.row.label === 'attack');
  if (attacks.length === 0 || benign.length === 0) return Number.NaN;
  const allowed = Math.floor(fpr * benign.length);
  // Flag scores strictly above the (allowed+1)-th highest benign score.
  const bar = benign[allowed] ?? Number.NEGATIVE_INFINITY;
  return attacks.filter((s) => s.probability > bar).length / attacks.length;
}

function figures(scored: readonly ScoredRow[], threshold: number): GroupFigures {
  const attacks = scored.filter((s) => s.row.label === 'attack');
  const benign = scored.filter((s) => s.row.label === 'benign');
  return {
    attacks: attacks.length,
    benign: benign.length,
    recall: attacks.length
      ? attacks.filter((s) => s.probability >= threshold).length / attacks.length
      : Number.NaN,
    falsePositiveRate: benign.length
      ? benign.filter((s) => s.probability >= threshold).length / benign.length
      : Number.NaN,
  };
}

function grouped(
  scored: readonly ScoredRow[],
  threshold: number,
  key: (r: CorpusRow) => string | undefined,
): Record<string, GroupFigures> {
  const groups = new Map<string, ScoredRow[]>();
  for (const s of scored) {
    const k = key(s.row);
    if (k !== undefined) groups.set(k, [...(groups.get(k) ?? []), s]);
  }
  return Object.fromEntries([...groups.keys()].sort().map((k) => [k, figures(groups.get(k)!, threshold)]));
}

export function qualityReport(scored: readonly ScoredRow[], threshold: number): QualityReport {
  return {
    threshold,
    overall: figures(scored, threshold),
    recallAtFpr1: recallAtFalsePositiveRate(scored, 0.01),
    recallAtFpr2: recallAtFalsePositiveRate(scored, 0.02),
    recallAtFpr5: recallAtFalsePositiveRate(scored, 0.05),
    byLanguage: grouped(scored, threshold, (r) => r.lang),
    byFamily: grouped(scored, threshold, (r) => `${r.label}/${r.family}`),
    byDisguise: grouped(scored, threshold, (r) => r.disguise),
    byCarrier: grouped(scored, threshold, (r) => r.carrier),
    bySource: grouped(scored, threshold, sourceOf),
  };
}

/** The lowest threshold at which at most `fpr` of the benign rows score at or above it. */
export function thresholdForFalsePositiveRate(scored: readonly ScoredRow[], fpr: number): number {
  const benign = scored
    .filter((s) => s.row.label === 'benign')
    .map((s) => s.probability)
    .sort((a, b) => b - a);
  const allowed = Math.floor(fpr * benign.length);
  const bar = benign[allowed] ?? 0;
  // Just above the first benign score that must not be flagged.
  return Math.min(0.999, Math.ceil((bar + 1e-6) * 1000) / 1000);
}
