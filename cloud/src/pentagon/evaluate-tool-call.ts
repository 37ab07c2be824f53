/**
 * `evaluateToolCall`: the pentagon on a flat tool call (pentagon-call.ts), for tests, benchmarks and tools
 * that evaluate without a server. A thin mapping onto `evaluateAction`, which the kernel uses for every route.
 */
import type { TrustStore } from '@pentagate/crypto';
import type { LoadedPolicy } from '../policy/loaded-policy.js';
import { evaluateAction } from './evaluate-action.js';
import type { PentagonCall } from './pentagon-call.js';
import type { AgentIdentity, CallRecord, GovernedAction, LedgerState, PentagonVerdict } from './types.js';

export interface ToolCallEvaluationInput {
  call: PentagonCall;
  agent: AgentIdentity;
  policy: LoadedPolicy | undefined;
  ledger: LedgerState;
  history: readonly CallRecord[];
  trust: TrustStore;
  nowMs: number;
}

/**
 * The governed action a tool call describes (absent optional numbers become 0). Optional members are
 * assigned rather than spread in (`...(c ? { k } : {})` costs ~100× more in V8 11, Node 20).
 */
export function actionFromToolCall(call: PentagonCall): GovernedAction {
  const { trigger_prompt, model_id, spend_amount, region, department, call_depth, data_provenance, context } =
    call;
  const action: GovernedAction = {
    lobeName: call.lobe_name,
    toolName: call.tool_name,
    arguments: call.arguments,
    spendAmount: spend_amount ?? 0,
    callDepth: call_depth ?? 0,
    dataProvenance: data_provenance ?? [],
  };
  if (trigger_prompt !== undefined) action.triggerPrompt = trigger_prompt;
  if (model_id !== undefined) action.modelId = model_id;
  if (region !== undefined) action.region = region;
  if (department !== undefined) action.department = department;
  if (context !== undefined) action.context = context;
  if (call.claims !== undefined) action.claims = call.claims;
  return action;
}

export function evaluateToolCall(input: ToolCallEvaluationInput): PentagonVerdict {
  let action: GovernedAction;
  try {
    action = actionFromToolCall(input.call);
  } catch {
    // A call object that cannot even be read (e.g. a throwing getter) still gets a DENY verdict.
    action = {
      lobeName: '',
      toolName: '',
      arguments: {},
      spendAmount: Number.NaN,
      callDepth: 0,
      dataProvenance: [],
    };
  }
  const { agent, policy, ledger, history, trust, nowMs } = input;
  return evaluateAction({ action, agent, policy, ledger, history, trust, nowMs });
}
