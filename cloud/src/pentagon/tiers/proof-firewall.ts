/**
 * tier2 `proofFirewall`: RISK (prompt injection in the trigger prompt and every string of the arguments
 * and context; destructive commands in the arguments), PROVENANCE (custody of data arguments) and INVARIANT (protected resources).
 */
import type { TrustStore } from '@pentagate/crypto';
import type { ProofFirewallTier } from '@pentagate/protocol';
import type { LoadedPolicy } from '../../policy/loaded-policy.js';
import { commandReadings } from '../command-readings.js';
import { type StringField, stringFields } from '../string-fields.js';
import type { GovernedAction, RuleFinding } from '../types.js';
import { finding } from '../violation.js';
import { custodyProvenance } from './custody-provenance.js';
import { destructiveCommands } from './destructive-commands.js';
import { screenTexts } from './injection/index.js';
import { protectedResources } from './protected-resources.js';

export interface ProofFirewallResult {
  tier: ProofFirewallTier;
  findings: RuleFinding[];
}

export function proofFirewallTier(
  policy: LoadedPolicy,
  action: GovernedAction,
  trust: TrustStore,
  nowMs: number,
): ProofFirewallResult {
  const args = stringFields(action.arguments, '/arguments');
  // what a shell or interpreter runs for each argument (`r''m -rf /` runs `rm -rf /`), read by every rule
  const readings = commandReadings(args.fields);
  const context = action.context
    ? stringFields(action.context, '/context')
    : { fields: [], joined: [], truncated: false };
  const texts: StringField[] = [
    ...(action.triggerPrompt !== undefined ? [{ path: '/trigger_prompt', value: action.triggerPrompt }] : []),
    ...args.fields,
    ...context.fields,
    ...args.joined,
    ...context.joined,
    ...readings,
  ];
  // The readings go to the rules only. They are there for the rules that name commands (tool.destructive-shell),
  // and any argument with a quote, `$`, `{` or backslash has one — prose with an apostrophe too — so a second
  // classifier pass over each such copy doubled the screen's cost for those fields; the classifier still reads
  // every argument as written, and an instruction spelled with shell quotes is found by the rules in its reading.
  const screen = screenTexts(texts, policy.injection, texts.length - readings.length);
  const findings: RuleFinding[] = [];
  if (args.truncated || context.truncated) {
    // Strings we did not visit were not screened: refuse rather than pass them unseen.
    screen.flagged = true;
    screen.stage = 'rules';
    screen.score = 1;
    screen.findings.unshift({
      ruleId: 'unscannable.too-large',
      category: 'unscannable',
      weight: 1,
      field: args.truncated ? '/arguments' : '/context',
      excerpt: 'more strings or deeper nesting than the screen visits',
    });
  }
  if (screen.flagged) {
    const top = screen.findings.filter((f) => f.field === (screen.worstField || screen.findings[0]?.field));
    const field = top[0]?.field ?? screen.worstField;
    const fired =
      screen.stage === 'classifier'
        ? `classifier probability ${screen.score} >= threshold ${screen.threshold}`
        : `scores ${screen.score} >= threshold ${screen.threshold}: ${top.map((f) => `${f.ruleId} (${f.category}, ${f.weight})`).join(', ')}`;
    findings.push(
      finding(
        'RISK.PROMPT_INJECTION',
        `stage ${screen.stage ?? 'rules'}: ${field} ${fired}`,
        `remove the instruction-like text from ${field} (${screen.stage === 'classifier' ? 'passage' : 'matched'}: ${top.map((f) => `"${f.excerpt}"`).join(', ')}); data passed to tools must not carry instructions to the agent`,
        'tier2.proofFirewall/injection',
      ),
    );
  }
  const provenance = custodyProvenance(policy, action, trust, nowMs);
  const resources = protectedResources(policy, action, args.fields);
  findings.push(
    ...provenance.findings,
    ...resources.findings,
    ...destructiveCommands(policy, action, args.fields, readings),
  );
  return {
    tier: {
      passed: findings.length === 0,
      injection: {
        flagged: screen.flagged,
        score: screen.score,
        threshold: screen.threshold,
        fieldsScanned: screen.fieldsScanned,
        findings: screen.findings.slice(0, 32),
      },
      provenance: provenance.provenance,
      protectedResources: resources.hits.slice(0, 32),
    },
    findings,
  };
}
