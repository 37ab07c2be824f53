/**
 * A policy after loading: the document as written (its digest is what decisions cite), plus the same
 * rules with globs compiled and defaults filled, so evaluation never parses or guesses.
 */
import type { JurisdictionRule, PolicyDocument } from './policy-schema.js';

export interface CompiledToolRule {
  id: string;
  tools: RegExp[];
  reason: string;
}

export interface CompiledBudgetRule {
  id: string;
  scope: 'agent' | 'lobe';
  subject: RegExp;
  amount: number;
  windowMs: number;
  reservePercent: number;
  unit: string;
}

export interface CompiledProtectedResource {
  id: string;
  pattern: string;
  matcher: RegExp;
  /** Absent: the protection applies to every tool. */
  tools?: RegExp[];
  reason: string;
}

export interface CompiledJurisdictionRule extends Omit<JurisdictionRule, 'tools'> {
  tools: RegExp[];
  /** `allow` upper-cased, for case-insensitive comparison. */
  allowUpper: Set<string>;
}

export interface LoadedPolicy {
  id: string;
  /** sha256hex(JCS(document)): the policy's identity in decisions and proofs. */
  digest: string;
  /** Where it came from (file path, "tenant:<id>"); for messages only. */
  source: string;
  document: PolicyDocument;
  budgets: CompiledBudgetRule[];
  denied: CompiledToolRule[];
  consent: (CompiledToolRule & { minSpend: number })[];
  holds: (CompiledToolRule & { holdMs: number })[];
  protectedResources: CompiledProtectedResource[];
  provenance: (CompiledToolRule & { arguments: string[] })[];
  /** Tools whose spend is (at least) the value of a named argument. */
  spendArguments: (CompiledToolRule & { argument: string })[];
  /** Tools that run a string argument as SQL (destructive statements refused in them). */
  sqlTools: CompiledToolRule[];
  jurisdictions: CompiledJurisdictionRule[];
  injection: {
    threshold: number;
    extraPatterns: { id: string; phrase: string; weight: number }[];
    /** The classifier stage; absent means enabled with the model's own threshold. */
    classifier?: { enabled: boolean; threshold: number | undefined };
  };
  metabolic: {
    repeatWindowMs: number;
    maxIdentical: number;
    maxNearIdentical: number;
    maxCallDepth: number;
    probingEnabled: boolean;
    maxDeniedVariants: number;
    probingWindowMs: number;
  };
}

/**
 * The budget that governs a call: the first agent rule matching the agent id, else the first lobe rule
 * matching the lobe name (document order). The platform uses it to sum spend over `windowMs`.
 */
export function budgetFor(
  policy: LoadedPolicy,
  who: { agentId: string; lobeName: string },
): CompiledBudgetRule | undefined {
  return (
    policy.budgets.find((b) => b.scope === 'agent' && b.subject.test(who.agentId)) ??
    policy.budgets.find((b) => b.scope === 'lobe' && b.subject.test(who.lobeName))
  );
}
