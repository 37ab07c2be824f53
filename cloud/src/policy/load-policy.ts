/**
 * `loadPolicy(yamlText, source)`: parse, validate and compile a tenant policy, or throw PolicyError listing
 * every problem with its JSON Pointer and YAML line — not just the first — so an operator fixes the file in
 * one pass.
 */
import { jcsDigestHex } from '@pentagate/crypto';
import { schemaIssues } from '@pentagate/protocol';
import { type Document, LineCounter, isNode, parseDocument } from 'yaml';
import { compileGlob } from './glob.js';
import { compileToolGlobs } from './tool-name-forms.js';
import type { LoadedPolicy } from './loaded-policy.js';
import { PolicyError, type PolicyProblem } from './policy-error.js';
import { POLICY_DEFAULTS, type PolicyDocument, PolicyDocumentSchema } from './policy-schema.js';

/** Largest policy text accepted; a policy is configuration, not data. */
export const MAX_POLICY_BYTES = 512 * 1024;

function lineOf(doc: Document, counter: LineCounter, pointer: string): number | undefined {
  const keys = pointer
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((k) => (/^\d+$/.test(k) ? Number(k) : k));
  // Walk up until a node exists (a missing property points at its parent object).
  for (let n = keys.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(keys.slice(0, n), true);
    if (isNode(node) && node.range) return counter.linePos(node.range[0]).line;
  }
  return undefined;
}

/** Checks the schema cannot express: unique ids, one subject per budget, an argument for data residency. */
function semanticProblems(policy: PolicyDocument): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  const seen = new Map<string, string>();
  const claim = (id: string, path: string) => {
    const first = seen.get(id);
    if (first !== undefined)
      problems.push({ path: `${path}/id`, message: `duplicate rule id "${id}" (first at ${first})` });
    else seen.set(id, path);
  };
  policy.budgets?.forEach((b, i) => {
    claim(b.id, `/budgets/${i}`);
    if ((b.lobe === undefined) === (b.agent === undefined)) {
      problems.push({ path: `/budgets/${i}`, message: 'expected exactly one of "lobe" and "agent"' });
    }
  });
  const tools = policy.tools ?? {};
  for (const kind of [
    'denied',
    'consentRequired',
    'holdForVeto',
    'protectedResources',
    'provenanceRequired',
    'spendArguments',
    'sqlTools',
  ] as const) {
    tools[kind]?.forEach((r, i) => {
      claim(r.id, `/tools/${kind}/${i}`);
    });
  }
  policy.jurisdictions?.forEach((j, i) => {
    claim(j.id, `/jurisdictions/${i}`);
    if (j.kind === 'data-residency' && j.argument === undefined) {
      problems.push({
        path: `/jurisdictions/${i}`,
        message: 'a data-residency rule needs "argument" (the destination)',
      });
    }
    if (j.kind !== 'data-residency' && j.argument !== undefined) {
      problems.push({
        path: `/jurisdictions/${i}/argument`,
        message: `"argument" only applies to data-residency, not ${j.kind}`,
      });
    }
  });
  policy.injection?.extraPatterns?.forEach((p, i) => {
    claim(p.id, `/injection/extraPatterns/${i}`);
  });
  return problems;
}

function compile(document: PolicyDocument, source: string): LoadedPolicy {
  const names = compileToolGlobs;
  const tools = document.tools ?? {};
  const m = document.metabolic ?? {};
  const probing = m.probing ?? {};
  return {
    id: document.id,
    digest: jcsDigestHex(document),
    source,
    document,
    budgets: (document.budgets ?? []).map((b) => ({
      id: b.id,
      scope: b.agent !== undefined ? 'agent' : 'lobe',
      subject: compileGlob(b.agent ?? b.lobe ?? '', 'name'),
      amount: b.amount,
      windowMs: b.windowMs,
      reservePercent: b.reservePercent ?? 0,
      unit: b.unit ?? 'units',
    })),
    denied: (tools.denied ?? []).map((r) => ({ id: r.id, tools: names(r.tools), reason: r.reason })),
    consent: (tools.consentRequired ?? []).map((r) => ({
      id: r.id,
      tools: names(r.tools),
      reason: r.reason,
      minSpend: r.minSpend ?? 0,
    })),
    holds: (tools.holdForVeto ?? []).map((r) => ({
      id: r.id,
      tools: names(r.tools),
      reason: r.reason,
      holdMs: r.holdMs,
    })),
    protectedResources: (tools.protectedResources ?? []).map((r) => ({
      id: r.id,
      pattern: r.pattern,
      matcher: compileGlob(r.pattern, 'path'),
      ...(r.tools ? { tools: names(r.tools) } : {}),
      reason: r.reason,
    })),
    provenance: (tools.provenanceRequired ?? []).map((r) => ({
      id: r.id,
      tools: names(r.tools),
      reason: r.reason,
      arguments: [...r.arguments],
    })),
    spendArguments: (tools.spendArguments ?? []).map((r) => ({
      id: r.id,
      tools: names(r.tools),
      reason: r.reason,
      argument: r.argument,
    })),
    sqlTools: (tools.sqlTools ?? []).map((r) => ({ id: r.id, tools: names(r.tools), reason: r.reason })),
    jurisdictions: (document.jurisdictions ?? []).map((j) => ({
      ...j,
      tools: names(j.tools ?? ['*']),
      allowUpper: new Set(j.allow.map((a) => a.toUpperCase())),
    })),
    injection: {
      threshold: document.injection?.threshold ?? POLICY_DEFAULTS.injectionThreshold,
      extraPatterns: (document.injection?.extraPatterns ?? []).map((p) => ({ ...p })),
      classifier: {
        enabled: document.injection?.classifier?.enabled ?? true,
        threshold: document.injection?.classifier?.threshold,
      },
    },
    metabolic: {
      repeatWindowMs: m.repeatWindowMs ?? POLICY_DEFAULTS.repeatWindowMs,
      maxIdentical: m.maxIdentical ?? POLICY_DEFAULTS.maxIdentical,
      maxNearIdentical: m.maxNearIdentical ?? POLICY_DEFAULTS.maxNearIdentical,
      maxCallDepth: m.maxCallDepth ?? POLICY_DEFAULTS.maxCallDepth,
      probingEnabled: probing.enabled ?? POLICY_DEFAULTS.probingEnabled,
      maxDeniedVariants: probing.maxDeniedVariants ?? POLICY_DEFAULTS.maxDeniedVariants,
      probingWindowMs: probing.windowMs ?? POLICY_DEFAULTS.probingWindowMs,
    },
  };
}

/** Parses and validates a policy; throws PolicyError (code POLICY_INVALID) naming every problem. */
export function loadPolicy(yamlText: string, source: string): LoadedPolicy {
  if (Buffer.byteLength(yamlText, 'utf8') > MAX_POLICY_BYTES) {
    throw new PolicyError(source, [
      {
        path: '',
        message: `expected at most ${MAX_POLICY_BYTES} bytes, got ${Buffer.byteLength(yamlText, 'utf8')}`,
      },
    ]);
  }
  const counter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new PolicyError(
      source,
      doc.errors.map((e) => ({
        path: '',
        ...(e.linePos ? { line: e.linePos[0].line } : {}),
        message: `YAML: ${e.message.split('\n')[0]}`,
      })),
    );
  }
  let value: unknown;
  try {
    // maxAliasCount bounds "billion laughs" alias expansion.
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw new PolicyError(source, [{ path: '', message: `YAML: ${(err as Error).message}` }]);
  }
  const issues = schemaIssues(PolicyDocumentSchema, value);
  const problems: PolicyProblem[] =
    issues.length > 0
      ? issues.map((i) => ({ path: i.path, message: i.message }))
      : semanticProblems(value as PolicyDocument);
  if (problems.length > 0) {
    throw new PolicyError(
      source,
      problems.map((p) => {
        const line = p.path ? lineOf(doc, counter, p.path) : undefined;
        return line === undefined ? p : { ...p, line };
      }),
    );
  }
  return compile(value as PolicyDocument, source);
}
