/**
 * Prompt-injection screening of a set of text fields, in two stages. Stage `rules`: the weighted rules
 * (rules/) score each field and the highest field score decides. Stage `classifier`, only when the
 * rules let the call through: the linear classifier (classifier/) scores every field window by window,
 * and the highest probability decides against its own threshold. Fields are the call's trigger prompt
 * and every string (and object key) in its arguments. A flagged screen names the stage, the field and
 * the passage that fired, so a remediation can say what to remove.
 */
import { bundledModel, type ClassifierWinner, classifierWinner, winningPassage } from './classifier/index.js';
import {
  combinedScore,
  type InjectionFinding,
  MAX_SCANNED_FIELD_CHARS,
  type PreparedText,
  prepareText,
  scanText,
  type TenantPattern,
} from './scan.js';

export type { InjectionFinding, PreparedText, TenantPattern } from './scan.js';
export { prepareText } from './scan.js';
export { INJECTION_RULES } from './rules/index.js';
export { classifyText } from './classifier/index.js';

export type InjectionStage = 'rules' | 'classifier';

export interface ClassifierSettings {
  /** Run the classifier stage (default true). */
  enabled: boolean;
  /** Probability at or above which a field is refused; undefined: the threshold shipped with the model. */
  threshold?: number | undefined;
}

export interface InjectionSettings {
  threshold: number;
  extraPatterns: readonly TenantPattern[];
  classifier?: ClassifierSettings | undefined;
}

export interface InjectionScreen {
  flagged: boolean;
  /** The stage that flagged the call (absent when neither did). */
  stage?: InjectionStage;
  /** Score of the deciding stage, 0..1: the highest rule score, or the classifier's when it decided. */
  score: number;
  /** Threshold of the deciding stage. */
  threshold: number;
  fieldsScanned: number;
  /** Findings of every field that scored above zero, highest-scoring field first. */
  findings: InjectionFinding[];
  /** The field with the highest score ("" when nothing fired). */
  worstField: string;
  /** The classifier's highest field probability (absent when the stage did not run). */
  classifierScore?: number;
}

/**
 * `classifiedFields`: how many of the fields, from the first, the classifier stage reads (default all); the
 * rest are read by the rules only (proof-firewall.ts passes a shell's readings of the arguments so).
 */
export function screenTexts(
  fields: readonly { path: string; value: string }[],
  settings: InjectionSettings,
  classifiedFields = fields.length,
): InjectionScreen {
  const scored: { path: string; score: number; findings: InjectionFinding[] }[] = [];
  // Views computed once per field, for the rules and then the classifier.
  const prepared: (PreparedText | undefined)[] = [];
  for (const f of fields) {
    const p = f.value.length > MAX_SCANNED_FIELD_CHARS ? undefined : prepareText(f.value);
    prepared.push(p);
    const findings = scanText(f.value, f.path, settings.extraPatterns, p);
    if (findings.length > 0) scored.push({ path: f.path, score: combinedScore(findings), findings });
  }
  // Stable order: by score, then by field order (sort is stable in ES2019+).
  scored.sort((a, b) => b.score - a.score);
  const score = scored[0]?.score ?? 0;
  const screen: InjectionScreen = {
    flagged: score >= settings.threshold,
    score,
    threshold: settings.threshold,
    fieldsScanned: fields.length,
    findings: allFindings(scored),
    worstField: scored[0]?.path ?? '',
  };
  if (screen.flagged) {
    screen.stage = 'rules';
    return screen;
  }
  if (settings.classifier?.enabled === false) return screen;
  const classified = classifiedFields < fields.length ? fields.slice(0, classifiedFields) : fields;
  return classifierStage(classified, prepared, settings.classifier?.threshold, screen);
}

/** The fields' findings one after another, in the fields' order (a loop: flatMap's generic path cost more
 * than the copying). */
function allFindings(scored: readonly { findings: readonly InjectionFinding[] }[]): InjectionFinding[] {
  const out: InjectionFinding[] = [];
  for (const s of scored) for (const f of s.findings) out.push(f);
  return out;
}

function classifierStage(
  fields: readonly { path: string; value: string }[],
  prepared: readonly (PreparedText | undefined)[],
  threshold: number | undefined,
  screen: InjectionScreen,
): InjectionScreen {
  const model = bundledModel();
  const bar = threshold ?? model.threshold;
  let best: { path: string; probability: number; winner: ClassifierWinner | undefined } | undefined;
  for (let i = 0; i < fields.length; i++) {
    const winner = classifierWinner(fields[i]!.value, model, prepared[i]);
    const probability = winner?.probability ?? 0;
    if (best === undefined || probability > best.probability)
      best = { path: fields[i]!.path, probability, winner };
  }
  if (best === undefined) return screen;
  screen.classifierScore = best.probability;
  if (best.probability < bar) return screen;
  const finding: InjectionFinding = {
    ruleId: `classifier.linear@${best.winner?.view ?? 'text'}`,
    category: 'classifier',
    weight: best.probability,
    field: best.path,
    excerpt: winningPassage(best.winner),
  };
  // The screen is this call's own object, so it is completed in place rather than copied: its keys keep
  // their order, and `stage`, added last, comes last as it did in the copy.
  screen.flagged = true;
  screen.stage = 'classifier';
  screen.score = best.probability;
  screen.threshold = bar;
  screen.findings = [finding, ...screen.findings];
  screen.worstField = best.path;
  return screen;
}
