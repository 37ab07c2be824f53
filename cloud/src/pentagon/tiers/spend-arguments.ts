/**
 * ECONOMY: what a tool call really spends. `spend_amount` is the agent's own declaration, and the budget
 * and the consent thresholds (`minSpend`) read it, so an agent that declares 0 for a 20 000 USD
 * `payments.transfer` would pass both (the consent rule's remediation even used to say "keep
 * spend_amount below …", which a self-correcting model would follow). A tool whose arguments carry the
 * amount names it in the policy (`tools.spendArguments`); the call then spends at least that argument's
 * value, whatever it declared. An argument that is missing, or not a finite number >= 0, refuses the
 * call (fail closed): the gate cannot know what the tool will move.
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

/**
 * The values of `object`'s own members named `name` in any letter case: a tool (or the JSON binding in
 * front of it) that reads `Amount` for `amount` would otherwise spend an `Amount` of 50 000 beside an
 * `amount` of 1 that the gate counted. Every such member counts (the larger wins), so a variant can only
 * add spend or, when it is not a number, refuse the call.
 */
function membersNamed(object: unknown, name: string): unknown[] {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return [];
  const lower = name.toLowerCase();
  const values: unknown[] = [];
  for (const key of Object.keys(object)) {
    if (key.toLowerCase() === lower) values.push((object as Record<string, unknown>)[key]);
  }
  return values;
}

/** A spend the gates can count: a finite number >= 0 (also the kernel's check of a declared spendAmount). */
export const isSpend = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/**
 * The argument's values: top level (the agent routes' `arguments`, a kernel payload), and inside a nested
 * `arguments` object — where a kernel `tool:invoke` that copies the agent routes' shape
 * (`{ tool, arguments: { … } }`) carries it. All count (the larger wins), so nesting can only add spend.
 */
function valuesOf(args: Record<string, unknown>, name: string): unknown[] {
  const nested = membersNamed(args, 'arguments').flatMap((inner) => membersNamed(inner, name));
  return [...membersNamed(args, name), ...nested];
}

export function spendFromArguments(policy: LoadedPolicy, action: GovernedAction): SpendResult {
  let spendAmount = action.spendAmount;
  const findings: RuleFinding[] = [];
  for (const rule of policy.spendArguments) {
    if (!matchesAny(rule.tools, action.toolName)) continue;
    const values = valuesOf(action.arguments, rule.argument);
    const bad = values.find((v) => !isSpend(v));
    if (values.length > 0 && bad === undefined) {
      spendAmount = Math.max(spendAmount, ...(values as number[]));
      continue;
    }
    const got = bad === undefined ? 'nothing' : oneLine(JSON.stringify(bad) ?? String(bad), 64);
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
