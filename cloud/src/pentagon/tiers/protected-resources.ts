/**
 * INVARIANT: protected resources (core logic, policies, secrets) are not touched by tool calls — they
 * change only through the governed policy route. Every string argument is compared with each pattern
 * in every form a tool could open it under (resource-path-forms.ts), so `/srv/app/../../etc/passwd`,
 * `file://localhost/etc/passwd`, ` /etc/passwd`, a relative `etc/passwd` (opened from `/` by a daemon) or
 * `\\localhost\C$\etc\passwd` cannot pass as something other than `/etc/passwd`.
 */
import type { ProofFirewallTier } from '@pentagate/protocol';
import { matchesTool } from '../../policy/tool-name-forms.js';
import type { LoadedPolicy } from '../../policy/loaded-policy.js';
import { oneLine } from '../one-line.js';
import type { StringField } from '../string-fields.js';
import type { GovernedAction, RuleFinding } from '../types.js';
import { finding } from '../violation.js';
import { resourcePathForms } from './resource-path-forms.js';

export interface ProtectedResult {
  hits: ProofFirewallTier['protectedResources'];
  findings: RuleFinding[];
}

export function protectedResources(
  policy: LoadedPolicy,
  action: GovernedAction,
  argumentFields: readonly StringField[],
): ProtectedResult {
  const hits: ProofFirewallTier['protectedResources'] = [];
  const findings: RuleFinding[] = [];
  const rules = policy.protectedResources.filter((r) => !r.tools || matchesTool(r.tools, action.toolName));
  if (rules.length === 0) return { hits, findings };
  for (const field of argumentFields) {
    const { forms, complete } = resourcePathForms(field.value);
    for (const rule of rules) {
      // A string with more readings than are derived may name the resource in one not read: refuse it.
      if (complete && !forms.some((f) => rule.matcher.test(f))) continue;
      const shown = oneLine(field.value, 200);
      hits.push({ ruleId: rule.id, pattern: rule.pattern, field: field.path, value: shown });
      const why = complete
        ? `matches protected pattern "${rule.pattern}"`
        : `has more readings as a path than the gate derives, so it may name protected pattern "${rule.pattern}"`;
      findings.push(
        finding(
          'INVARIANT.PROTECTED_RESOURCE',
          `${field.path} = "${oneLine(field.value, 80)}" ${why} (rule ${rule.id}): ${rule.reason}`,
          `remove ${field.path} or point it outside "${rule.pattern}"${complete ? '' : ' in a plain path'}; protected resources change only through the governed policy route`,
          `tier2.proofFirewall/${rule.id}`,
        ),
      );
    }
  }
  return { hits, findings };
}
