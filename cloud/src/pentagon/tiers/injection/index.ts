/**
 * Prompt-injection screening of a set of text fields: the highest field score decides. Fields are the
 * call's trigger prompt and every string (and object key) in its arguments.
 */
import { combinedScore, type InjectionFinding, scanText, type TenantPattern } from './scan.js';

export type { InjectionFinding, TenantPattern } from './scan.js';
export { INJECTION_RULES } from './rules.js';

export interface InjectionScreen {
  flagged: boolean;
  /** Highest field score, 0..1. */
  score: number;
  threshold: number;
  fieldsScanned: number;
  /** Findings of every field that scored above zero, highest-scoring field first. */
  findings: InjectionFinding[];
  /** The field with the highest score ("" when nothing fired). */
  worstField: string;
}

export function screenTexts(
  fields: readonly { path: string; value: string }[],
  settings: { threshold: number; extraPatterns: readonly TenantPattern[] },
): InjectionScreen {
  const scored: { path: string; score: number; findings: InjectionFinding[] }[] = [];
  for (const f of fields) {
    const findings = scanText(f.value, f.path, settings.extraPatterns);
    if (findings.length > 0) scored.push({ path: f.path, score: combinedScore(findings), findings });
  }
  // Stable order: by score, then by field order (sort is stable in ES2019+).
  scored.sort((a, b) => b.score - a.score);
  const score = scored[0]?.score ?? 0;
  return {
    flagged: score >= settings.threshold,
    score,
    threshold: settings.threshold,
    fieldsScanned: fields.length,
    findings: scored.flatMap((s) => s.findings),
    worstField: scored[0]?.path ?? '',
  };
}
