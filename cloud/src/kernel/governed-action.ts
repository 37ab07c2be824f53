/**
 * How a kernel ProposedAction becomes the pentagon's GovernedAction (cloud/src/pentagon/types.ts): the
 * tool name is the ActionType (for `tool:invoke`, the `payload.tool` it names, so the policy's tool rules
 * apply to the real tool), the arguments are the payload, the spend is `payload.amount` for `ledger:write`
 * and `payload.spendAmount` otherwise, and `context.reason` is screened like a trigger prompt.
 */
import type { ProposedAction } from '@pentagate/protocol';
import type { GovernedAction } from '../pentagon/index.js';

function stringField(payload: Record<string, unknown>, name: string): string | undefined {
  const v = payload[name];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

function numberField(payload: Record<string, unknown>, name: string): number | undefined {
  const v = payload[name];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/**
 * The spend a proposal asks for: the ledger amount or the declared spend; invalid or absent → 0. A
 * protective stop spends nothing, so its proof does not show budget that no gate may refuse it.
 */
export function spendOf(action: ProposedAction): number {
  if (action.type === 'actuator:stop') return 0;
  const n = numberField(action.payload, action.type === 'ledger:write' ? 'amount' : 'spendAmount');
  return n !== undefined && n > 0 ? n : 0;
}

export function toolNameOf(action: ProposedAction): string {
  return action.type === 'tool:invoke' ? (stringField(action.payload, 'tool') ?? action.type) : action.type;
}

export function governedActionFor(action: ProposedAction, lobeName: string): GovernedAction {
  const p = action.payload;
  const provenance = p.dataProvenance;
  const region = stringField(p, 'region');
  const department = stringField(p, 'department');
  const depth = numberField(p, 'callDepth');
  return {
    lobeName,
    toolName: toolNameOf(action),
    arguments: p,
    ...(action.context.reason !== undefined ? { triggerPrompt: action.context.reason } : {}),
    spendAmount: spendOf(action),
    ...(region !== undefined ? { region } : {}),
    ...(department !== undefined ? { department } : {}),
    callDepth: depth !== undefined && Number.isSafeInteger(depth) && depth >= 0 ? depth : 0,
    dataProvenance: Array.isArray(provenance) ? provenance : [],
    context: { ...action.context, actionType: action.type },
  };
}
