/**
 * `evaluateToolCall`: the pentagon for an AgentGate tool call (`POST /api/v1/agentgate/propose`).
 * A thin mapping onto `evaluateAction`, which the kernel reuses for its nine ActionTypes.
 */
import type { TrustStore } from '@pentagate/crypto';
import type { ToolCall } from '@pentagate/protocol';
import type { LoadedPolicy } from '../policy/loaded-policy.js';
import { evaluateAction } from './evaluate-action.js';
import type { AgentIdentity, CallRecord, GovernedAction, LedgerState, PentagonVerdict } from './types.js';

export interface ToolCallEvaluationInput {
  call: ToolCall;
  agent: AgentIdentity;
  policy: LoadedPolicy | undefined;
  ledger: LedgerState;
  history: readonly CallRecord[];
  trust: TrustStore;
  nowMs: number;
}

/** The governed action a tool call describes (absent optional numbers become 0). */
export function actionFromToolCall(call: ToolCall): GovernedAction {
  return {
    lobeName: call.lobe_name,
    toolName: call.tool_name,
    arguments: call.arguments,
    ...(call.trigger_prompt !== undefined ? { triggerPrompt: call.trigger_prompt } : {}),
    ...(call.model_id !== undefined ? { modelId: call.model_id } : {}),
    spendAmount: call.spend_amount ?? 0,
    ...(call.region !== undefined ? { region: call.region } : {}),
    ...(call.department !== undefined ? { department: call.department } : {}),
    callDepth: call.call_depth ?? 0,
    dataProvenance: call.data_provenance ?? [],
    ...(call.context !== undefined ? { context: call.context } : {}),
  };
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
  return evaluateAction({ ...input, action });
}
