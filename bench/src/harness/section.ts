/**
 * A part of a suite (e.g. the HMAC measurements of the crypto suite): rows, figures and notes that
 * the suite merges into its SuiteResult, so a suite can be split into small files.
 */
import { figuresOf, type LatencyStats } from './latency-stats.js';
import type { SuiteResult, TableRow, Target } from './suite.js';

export interface SectionResult {
  rows: (LatencyStats | TableRow)[];
  figures: Record<string, number>;
  targets?: Target[];
  notes?: string[];
}

/** A section whose figures are exactly its latency rows' figures (plus `extra`). */
export function sectionOf(rows: LatencyStats[], extra: Partial<SectionResult> = {}): SectionResult {
  const figures: Record<string, number> = {};
  for (const row of rows) Object.assign(figures, figuresOf(row));
  return { ...extra, rows: [...rows, ...(extra.rows ?? [])], figures: { ...figures, ...extra.figures } };
}

/** Concatenates sections into one suite result. */
export function mergeSections(suite: string, sections: SectionResult[]): SuiteResult {
  const result: SuiteResult = { suite, figures: {}, rows: [] };
  const targets: Target[] = [];
  const notes: string[] = [];
  for (const s of sections) {
    result.rows.push(...s.rows);
    Object.assign(result.figures, s.figures);
    targets.push(...(s.targets ?? []));
    notes.push(...(s.notes ?? []));
  }
  if (targets.length > 0) result.targets = targets;
  if (notes.length > 0) result.notes = notes;
  return result;
}
