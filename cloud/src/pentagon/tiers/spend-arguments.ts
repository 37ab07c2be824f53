/**
 * ECONOMY: what a tool call really spends. `spend_amount` is the agent's own declaration, and the budget
 * and the consent thresholds (`minSpend`) read it, so an agent that declares 0 for a 20 000 USD
 * `payments.transfer` would pass both (the consent rule's remediation even used to say "keep
 * spend_amount below …", which a self-correcting model would follow). A tool whose arguments carry the
 * amount names it in the policy (`tools.spendArguments`); the call then spends at least that argument's
 * value, whatever it declared: the total of the amounts found at any depth and in any spelling of the
 * arguments (`amounts`, `ＡＭＯＵＮＴ`, `amount_usd`: argument-names.ts), every element of a batch (an array, a
 * map, nested arrays, sibling objects) a payment of its own, each multiplied by its count (argument-values.ts). An
 * argument that is missing, or any copy of it that is not a finite number >= 0, or amounts whose total is not
 * finite, refuse the call (fail closed): the gate cannot know what the tool will move.
 */
import { matchesTool } from '../../policy/tool-name-forms.js';
import type { LoadedPolicy } from '../../policy/loaded-policy.js';
import { oneLine } from '../one-line.js';
import type { GovernedAction, RuleFinding } from '../types.js';
import { finding } from '../violation.js';
import { spendName } from './argument-names.js';
import { argumentValues } from './argument-values.js';

export interface SpendResult {
  /** The larger of the declared spend and every matching rule's argument (the declared one if none). */
  spendAmount: number;
  findings: RuleFinding[];
}

/** A spend the gates can count: a finite number >= 0 (also the kernel's check of a declared spendAmount). */
export const isSpend = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/**
 * A multiplier (`count`, `quantity`, …) the spend cannot be computed with: a number that is no spend, or a
 * string a tool could read as a number (`count: "1000"`). Other strings (`units: "cents"`) name no count.
 */
const isUncountedMultiplier = (v: unknown): boolean =>
  typeof v === 'number'
    ? !isSpend(v)
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v));

export function spendFromArguments(policy: LoadedPolicy, action: GovernedAction): SpendResult {
  let spendAmount = action.spendAmount;
  const findings: RuleFinding[] = [];
  for (const rule of policy.spendArguments) {
    if (!matchesTool(rule.tools, action.toolName)) continue;
    const { values, total, multipliers, complete } = argumentValues(
      action.arguments,
      spendName(rule.argument),
    );
    // Indexes, not the values found: `null` is a value that refuses, and `??` would pass over it.
    const badValue = values.findIndex((v) => !isSpend(v));
    const badCount = multipliers.findIndex(isUncountedMultiplier);
    const bad = badValue >= 0 ? values[badValue] : badCount >= 0 ? multipliers[badCount] : undefined;
    const invalid = badValue >= 0 || badCount >= 0;
    if (values.length > 0 && !invalid && complete && isSpend(total)) {
      spendAmount = Math.max(spendAmount, total);
      continue;
    }
    const got = !complete
      ? 'arguments nested too deep to read'
      : invalid
        ? `${oneLine(JSON.stringify(bad) ?? String(bad), 64)}${badValue < 0 ? ' as the count it is multiplied by (count, quantity, qty or units)' : ''}`
        : values.length === 0
          ? 'nothing'
          : `amounts whose total is ${total}`;
    findings.push(
      finding(
        'ECONOMY.SPEND_ARGUMENT_INVALID',
        `${action.toolName} spends the value of argument "${rule.argument}" (rule ${rule.id}), which must be a finite number >= 0, got ${got}: ${rule.reason}`,
        `send arguments.${rule.argument} (on the kernel route payload.${rule.argument}) as the number the call spends, in the budget unit`,
        `tier3.economic/${rule.id}`,
      ),
    );
  }
  return { spendAmount, findings };
}
