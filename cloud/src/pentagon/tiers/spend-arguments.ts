/**
 * ECONOMY: what a tool call really spends. `spend_amount` is the agent's own declaration, and the budget and
 * the consent thresholds (`minSpend`) read it, so an agent that declares 0 for a 20 000 USD
 * `payments.transfer` would pass both — and the consent rule's remediation ("keep spend_amount below …")
 * even tells a self-correcting model to do so. A tool whose arguments carry the amount names it in the
 * policy (`tools.spendArguments`); the call then spends at least that argument's value, whatever it
 * declared. An argument that is missing, or not a finite number >= 0, refuses the call (fail closed):
 * the gate cannot know what the tool will move.
 */
import { matchesAny } from '../../policy/glob.js';
import type { LoadedPolicy } from '../../policy/loaded-policy.js';
import { oneLine } from '../one-line.js';
import type { GovernedAction, RuleFinding } from '../types.js';
import { finding } from '../violation.js';

export interface SpendResult {
  /** The larger of the declared spend and every matching rule's argument (the declared one if none). */
  spendAmount: number;
  findings: RuleFinding[];
}

export function spendFromArguments(policy: LoadedPolicy, action: GovernedAction): SpendResult {
  let spendAmount = action.spendAmount;
  const findings: RuleFinding[] = [];
  for (const rule of policy.spendArguments) {
    if (!matchesAny(rule.tools, action.toolName)) continue;
    const value = Object.hasOwn(action.arguments, rule.argument)
      ? action.arguments[rule.argument]
      : undefined;
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
      spendAmount = Math.max(spendAmount, value);
      continue;
    }
    const got = value === undefined ? 'nothing' : oneLine(JSON.stringify(value) ?? String(value), 64);
    findings.push(
      finding(
        'ECONOMY.SPEND_ARGUMENT_INVALID',
        `${action.toolName} spends the value of argument "${rule.argument}" (rule ${rule.id}), which must be a finite number >= 0, got ${got}: ${rule.reason}`,
        `send arguments.${rule.argument} as the number the call spends, in the budget unit`,
        `tier3.economic/${rule.id}`,
      ),
    );
  }
  return { spendAmount, findings };
}
