/**
 * The kernel's rules per ActionType (shared/protocol schemas/action-type.ts lists which vertices apply to
 * each) and on the proposal's context. They add to the pentagon's findings; they never remove one — except
 * for `actuator:stop`, which no gate may refuse (ARCHITECTURE.md §4, protective stop), handled by the combiner.
 * A `tool:invoke` whose tool names an action type gets that type's rules too (ruleSubjects). Every route
 * decides here (kernel/decide.ts; the agent routes through kernel/authorize.ts), so there is one look-up.
 */
import { ACTION_TYPES, type ActionType, type ProposedAction } from '@pentagate/protocol';
import { amount } from '../pentagon/violation.js';
import { compileToolGlobs, matchesTool } from '../policy/tool-name-forms.js';
import type { KernelRuleSettings } from './kernel-settings.js';
import type { KernelFinding } from './kernel-violations.js';
import { type FieldSource, payloadFieldFindings, payloadSource } from './payload-fields.js';

const isValidAmount = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v > 0;
const isValidRecipient = (v: unknown): boolean => typeof v === 'string' && v.trim().length > 0;

function ledgerWriteFindings(source: FieldSource): KernelFinding[] {
  const out: KernelFinding[] = [];
  // every copy must be valid and one must be given (fail closed: the gate cannot tell which the tool reads)
  const amounts = source.read('amount');
  const badAmount = amounts.length === 0 ? [undefined] : amounts.filter((v) => !isValidAmount(v));
  for (const amt of badAmount) {
    out.push({
      code: 'INVARIANT.PAYLOAD_INVALID',
      message: `ledger:write needs ${source.where}.amount as a finite number > 0, got ${JSON.stringify(amt) ?? 'nothing'}`,
      remediation: 'send payload.amount as a positive number in the budget unit',
    });
  }
  const recipients = source.read('recipient');
  const badRecipient = recipients.length === 0 ? [undefined] : recipients.filter((v) => !isValidRecipient(v));
  for (const recipient of badRecipient) {
    out.push({
      code: 'INVARIANT.PAYLOAD_INVALID',
      message: `ledger:write needs ${source.where}.recipient as a non-empty string, got ${JSON.stringify(recipient) ?? 'nothing'}`,
      remediation: 'name the counterparty in payload.recipient',
    });
  }
  return out;
}

function exportFindings(source: FieldSource, settings: KernelRuleSettings): KernelFinding[] {
  const personalData = source.read('personalData').some((v) => v === true);
  const counts = source.read('recordCount').filter((v): v is number => typeof v === 'number');
  const bulkCount = counts.find((n) => n > settings.bulkExportRecords);
  if (!personalData && bulkCount === undefined) return [];
  const what = personalData ? 'personal data' : `${amount(bulkCount as number)} records`;
  return [
    {
      code: 'CONSENT.PERSONAL_DATA_EXPORT',
      message: `data:export of ${what} (bulk above ${settings.bulkExportRecords} records, or personalData: true) needs an operator`,
      remediation: `wait for an operator to approve, or export at most ${settings.bulkExportRecords} non-personal records`,
    },
  ];
}

/**
 * Each action type but tool:invoke as a tool rule's glob, in the folded spelling of tool names
 * (tool-name-forms.ts), so that `vault:write`, `vault.write`, `Vault_Write` and `mcp:vault/write` all name
 * `vault:write`.
 */
const TOOL_NAMED_TYPES: readonly { type: ActionType; globs: readonly RegExp[] }[] = ACTION_TYPES.filter(
  (type) => type !== 'tool:invoke',
).map((type) => ({ type, globs: compileToolGlobs([type]) }));

/** An action type whose rules apply, and where they read its fields. */
interface RuleSubject {
  type: ActionType;
  source: FieldSource;
  /** The type whose payload check already read the source's shared fields (payloadFieldFindings). */
  checked?: ActionType;
}

/**
 * Whose rules an action is judged by: its own type's on its payload, and for a `tool:invoke` whose tool
 * names another action type, that type's too, on the tool's arguments. Otherwise `tool:invoke` of
 * `vault:write` would reach secret storage with no operator, `data:export` of personal data unasked and
 * `policy.update` without the veto window (an outside review found all three, on the kernel and the agent
 * routes, which all decide here). The rules only add findings, so the stricter outcome wins (deny-overrides).
 * The arguments are read at the payload's top level (the kernel's flat form) and in its `arguments` (the
 * agent routes' form), as the pentagon reads a tool's arguments (argument-values.ts).
 */
function ruleSubjects(action: ProposedAction): RuleSubject[] {
  const own = { type: action.type, source: payloadSource(action.payload) };
  const tool = action.payload.tool;
  if (action.type !== 'tool:invoke' || typeof tool !== 'string') return [own];
  const named = TOOL_NAMED_TYPES.find((t) => matchesTool(t.globs, tool));
  if (named === undefined) return [own];
  const args = action.payload.arguments;
  const copies = [
    action.payload,
    ...(typeof args === 'object' && args !== null && !Array.isArray(args)
      ? [args as Record<string, unknown>]
      : []),
  ];
  const source: FieldSource = {
    read: (name) => copies.filter((c) => Object.hasOwn(c, name)).map((c) => c[name]),
    where: 'payload[.arguments]',
  };
  return [own, { type: named.type, source, checked: action.type }];
}

/** The rules of one action type, on the fields it reads from `source`. */
function typeRuleFindings(
  type: ActionType,
  source: FieldSource,
  settings: KernelRuleSettings,
): { findings: KernelFinding[]; holdMs: number } {
  switch (type) {
    case 'ledger:write':
      return { findings: ledgerWriteFindings(source), holdMs: 0 };
    case 'vault:write':
      return {
        findings: [
          {
            code: 'CONSENT.VAULT_WRITE',
            message: 'vault:write changes secret storage; an operator must approve every such write',
            remediation: 'wait for an operator to approve this vault write',
          },
        ],
        holdMs: 0,
      };
    case 'policy:update':
      return {
        findings: [
          {
            code: 'CONSENT.POLICY_UPDATE_HOLD',
            message: `policy:update is held for ${settings.policyUpdateHoldMs} ms so an operator can veto it`,
            remediation: `wait ${settings.policyUpdateHoldMs} ms; the update runs unless an operator vetoes it`,
          },
        ],
        holdMs: settings.policyUpdateHoldMs,
      };
    case 'data:export':
      return { findings: exportFindings(source, settings), holdMs: 0 };
    default:
      return { findings: [], holdMs: 0 };
  }
}

/** Findings and the hold they ask for (0 if none). */
export function actionRuleFindings(
  action: ProposedAction,
  settings: KernelRuleSettings,
): { findings: KernelFinding[]; holdMs: number } {
  const findings: KernelFinding[] = [];
  let holdMs = 0;
  for (const subject of ruleSubjects(action)) {
    const rules = typeRuleFindings(subject.type, subject.source, settings);
    findings.push(...rules.findings);
    holdMs = Math.max(holdMs, rules.holdMs);
    // a named type's own fields (data:export's personalData, recordCount) are typed as in its payload
    findings.push(...payloadFieldFindings(subject.type, subject.source, subject.checked));
  }
  // Every route's confidence lands in context.confidenceScore (agent_confidence, confidence): one threshold.
  // The remediation does not suggest a higher confidence: the number is the agent's word about itself, and
  // a language model reads the remediation and does what it says (specification §1.6); an operator decides.
  const confidence = action.context.confidenceScore;
  if (!(confidence >= settings.minConfidence)) {
    findings.push({
      code: 'CONSENT.LOW_CONFIDENCE',
      message: `the agent's confidence ${confidence} is below the threshold ${settings.minConfidence}`,
      remediation: 'wait for an operator to approve this call',
    });
  }
  return { findings, holdMs };
}
