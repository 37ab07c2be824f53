/**
 * The kernel's rules per ActionType (shared/protocol schemas/action-type.ts lists which vertices apply to
 * each) and on the proposal's context. They add to the pentagon's findings; they never remove one — except
 * for `actuator:stop`, which no gate may refuse (ARCHITECTURE.md §4, protective stop), handled by the combiner.
 */
import type { ProposedAction } from '@pentagate/protocol';
import { amount } from '../pentagon/violation.js';
import type { KernelRuleSettings } from './kernel-settings.js';
import type { KernelFinding } from './kernel-violations.js';
import { payloadFieldFindings } from './payload-fields.js';

function ledgerWriteFindings(action: ProposedAction): KernelFinding[] {
  const out: KernelFinding[] = [];
  const { amount: amt, recipient } = action.payload;
  if (typeof amt !== 'number' || !Number.isFinite(amt) || amt <= 0) {
    out.push({
      code: 'INVARIANT.PAYLOAD_INVALID',
      message: `ledger:write needs payload.amount as a finite number > 0, got ${JSON.stringify(amt) ?? 'nothing'}`,
      remediation: 'send payload.amount as a positive number in the budget unit',
    });
  }
  if (typeof recipient !== 'string' || recipient.trim().length === 0) {
    out.push({
      code: 'INVARIANT.PAYLOAD_INVALID',
      message: `ledger:write needs payload.recipient as a non-empty string, got ${JSON.stringify(recipient) ?? 'nothing'}`,
      remediation: 'name the counterparty in payload.recipient',
    });
  }
  return out;
}

function exportFindings(action: ProposedAction, settings: KernelRuleSettings): KernelFinding[] {
  const { personalData, recordCount } = action.payload;
  const bulk = typeof recordCount === 'number' && recordCount > settings.bulkExportRecords;
  if (personalData !== true && !bulk) return [];
  const what = personalData === true ? 'personal data' : `${amount(recordCount as number)} records`;
  return [
    {
      code: 'CONSENT.PERSONAL_DATA_EXPORT',
      message: `data:export of ${what} (bulk above ${settings.bulkExportRecords} records, or personalData: true) needs an operator`,
      remediation: `wait for an operator to approve, or export at most ${settings.bulkExportRecords} non-personal records`,
    },
  ];
}

/** Findings and the hold they ask for (0 if none). */
export function actionRuleFindings(
  action: ProposedAction,
  settings: KernelRuleSettings,
): { findings: KernelFinding[]; holdMs: number } {
  const findings: KernelFinding[] = [];
  let holdMs = 0;
  switch (action.type) {
    case 'ledger:write':
      findings.push(...ledgerWriteFindings(action));
      break;
    case 'vault:write':
      findings.push({
        code: 'CONSENT.VAULT_WRITE',
        message: 'vault:write changes secret storage; an operator must approve every such write',
        remediation: 'wait for an operator to approve this vault write',
      });
      break;
    case 'policy:update':
      holdMs = settings.policyUpdateHoldMs;
      findings.push({
        code: 'CONSENT.POLICY_UPDATE_HOLD',
        message: `policy:update is held for ${settings.policyUpdateHoldMs} ms so an operator can veto it`,
        remediation: `wait ${settings.policyUpdateHoldMs} ms; the update runs unless an operator vetoes it`,
      });
      break;
    case 'data:export':
      findings.push(...exportFindings(action, settings));
      break;
    default:
      break;
  }
  findings.push(...payloadFieldFindings(action));
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
