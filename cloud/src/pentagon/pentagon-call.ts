/**
 * A tool call in the flat form the pentagon evaluates on its own (`evaluateToolCall`): what the agent
 * routes send, flattened, with the registered model id beside it. The HTTP shapes live in
 * @pentagate/protocol (agentgate/tool-call.ts); the kernel turns them into a GovernedAction directly.
 */
export interface PentagonCall {
  lobe_name: string;
  tool_name: string;
  arguments: Record<string, unknown>;
  trigger_prompt?: string;
  model_id?: string;
  spend_amount?: number;
  region?: string;
  department?: string;
  /** What the request claimed, compared with `region` / `department` as bound (jurisdiction). */
  claims?: { region?: string; department?: string };
  call_depth?: number;
  data_provenance?: readonly unknown[];
  context?: Record<string, unknown>;
}
