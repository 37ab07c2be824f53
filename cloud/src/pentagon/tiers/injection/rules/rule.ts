/**
 * What an injection rule is, and the helpers every family of rules is written with. Weights are chosen
 * so that one unambiguous signal (≥ 0.5) refuses on its own while weaker, ambiguous signals (< 0.5)
 * refuse only together: a field scores 1 − Π(1 − weight) (scan.ts).
 *
 * Rules see the normalised views of `normalise.ts` (lower case, blanks collapsed). Gaps between words are
 * bounded (`{0,n}`) so no rule can backtrack without limit.
 */

export type InjectionCategory =
  | 'instruction-override'
  | 'role-hijack'
  | 'prompt-exfiltration'
  | 'delimiter-smuggling'
  | 'encoding-smuggling'
  | 'tool-abuse'
  | 'data-exfiltration'
  | 'indirect-address'
  | 'tenant-pattern'
  | 'unscannable'
  /** Not a rule: the classifier stage (classifier/), named in findings beside the rule categories. */
  | 'classifier';

export type TextView = 'plain' | 'skeleton' | 'squashed';

export interface InjectionRule {
  readonly id: string;
  readonly category: InjectionCategory;
  readonly weight: number;
  readonly pattern: RegExp;
  /** Views the rule runs on: English rules run on plain and skeleton; other scripts on plain only. */
  readonly views: readonly TextView[];
  readonly description: string;
}

/** Up to `n` more words between two parts of a phrase. */
export const gap = (n: number) => `(?:\\s\\S+){0,${n}}?`;
export const EN: readonly TextView[] = ['plain', 'skeleton'];
export const NATIVE: readonly TextView[] = ['plain'];

export function rule(
  id: string,
  category: InjectionCategory,
  weight: number,
  source: string,
  description: string,
  views: readonly TextView[] = EN,
): InjectionRule {
  return { id, category, weight, pattern: new RegExp(source, 'u'), views, description };
}
