/**
 * The agent routes' bodies (specification §2.3, §2.5) as kernel requests: each call is governed by the
 * kernel's `authorize` like a ProposedAction of type `tool:invoke`, so it shares the kernel's budget
 * ledger, approvals queue, holds, expiry, replay and audit entries. The specification's confidence fields
 * become `context.confidenceScore` (one threshold for every route); the registered model id and
 * agent_version go into the governed action, which commits to them in tier1.
 */
import type { ProposeRequest, ProposedAction, SelfCorrectAction } from '@pentagate/protocol';
import type { AuthorizeRequest } from '../kernel/authorize.js';
import type { JurisdictionClaims } from '../kernel/replay-input.js';
import type { GovernedAction } from '../pentagon/index.js';
import type { AgentRecord } from '../store/records.js';

/** The idempotency key of a tool call: one per agent (= lobe) and caller-chosen `tool_call.id`. */
export function toolCallKey(agentId: string, toolCallId: string): string {
  // `/` cannot occur in a kernel idempotencyKey (IdentifierSchema), so the two never collide
  return `tool_call/${agentId}/${toolCallId}`;
}

function claimsOf(
  region: string | undefined,
  department: string | undefined,
): JurisdictionClaims | undefined {
  if (region === undefined && department === undefined) return undefined;
  return { ...(region !== undefined ? { region } : {}), ...(department !== undefined ? { department } : {}) };
}

/** The registered model and version (register stores `modelId` in the agent's metadata). */
function registeredModel(agent: AgentRecord): Pick<GovernedAction, 'modelId' | 'agentVersion'> {
  const modelId = agent.metadata.modelId;
  return { ...(typeof modelId === 'string' ? { modelId } : {}), agentVersion: agent.version };
}

function toolInvoke(
  agent: AgentRecord,
  toolName: string,
  args: Record<string, unknown>,
  spendAmount: number,
  confidence: number,
): ProposedAction {
  return {
    type: 'tool:invoke',
    payload: { tool: toolName, arguments: args, spendAmount },
    context: { agentId: agent.id, confidenceScore: confidence },
  };
}

export function proposeRequest(agent: AgentRecord, body: ProposeRequest): AuthorizeRequest {
  const call = body.tool_call;
  const governed: GovernedAction = {
    lobeName: body.lobe_name,
    toolName: call.tool_name,
    arguments: call.arguments,
    triggerPrompt: call.trigger_prompt,
    ...registeredModel(agent),
    spendAmount: body.spend_amount,
    callDepth: call.call_depth ?? 0,
    dataProvenance: call.data_provenance ?? [],
    ...(call.context !== undefined ? { context: call.context } : {}),
  };
  const claims = claimsOf(body.region, body.department);
  return {
    route: 'agentgate.propose',
    action: toolInvoke(agent, call.tool_name, call.arguments, body.spend_amount, call.agent_confidence),
    actionRequest: body,
    subjectName: `agentgate.propose:${call.tool_name}`,
    idempotencyKey: toolCallKey(agent.id, call.id),
    agent,
    governed,
    ...(claims ? { claims } : {}),
    settleAllow: true,
    withProof: false,
  };
}

/**
 * The idempotency key of a self-correcting call sent with an `Idempotency-Key` header (the specification's
 * record has no call id): one per agent and header value, beside the tool-call keys.
 */
export function selfCorrectKey(agentId: string, idempotencyKey: string): string {
  return `selfcorrect/${agentId}/${idempotencyKey}`;
}

export function selfCorrectRequest(
  agent: AgentRecord,
  body: { action: SelfCorrectAction },
  idempotencyKey?: string,
): AuthorizeRequest {
  const a = body.action;
  const spend = a.spend_amount ?? 0;
  const governed: GovernedAction = {
    lobeName: agent.lobeName,
    toolName: a.tool_name,
    arguments: a.tool_args,
    ...(a.trigger_prompt !== undefined ? { triggerPrompt: a.trigger_prompt } : {}),
    ...registeredModel(agent),
    spendAmount: spend,
    callDepth: 0,
    dataProvenance: [],
    context: { intent_domain: a.intent_domain },
  };
  const claims = claimsOf(a.region, a.department);
  return {
    route: 'selfcorrect',
    action: toolInvoke(agent, a.tool_name, a.tool_args, spend, a.confidence),
    actionRequest: body,
    subjectName: `selfcorrect:${a.tool_name}`,
    ...(idempotencyKey !== undefined ? { idempotencyKey: selfCorrectKey(agent.id, idempotencyKey) } : {}),
    agent,
    governed,
    ...(claims ? { claims } : {}),
    settleAllow: true,
    withProof: false,
  };
}
