/**
 * The calls the compose test makes to the cloud from outside, in the interface specification's shapes
 * (agent registration, tool-call proposal) and the kernel's authorize, with plain fetch — as an agent would.
 */
import type { ComposeProject } from './compose-harness.js';

export interface CloudAccess {
  readonly base: string;
  readonly agentKey: string;
}

const DATABASE = 'postgres://pentagate@postgres:5432/pentagate';

/** A tenant and an agent key, made with the CLI inside a replica (the operator's path on a deployment). */
export async function createTenant(project: ComposeProject, base: string): Promise<CloudAccess> {
  const tenant = JSON.parse(
    await project.pentagate('cloud-a', [
      'cloud',
      'tenant',
      'create',
      `compose-${Date.now()}`,
      '--db',
      DATABASE,
      '--json',
    ]),
  ) as { id: string };
  const key = JSON.parse(
    await project.pentagate('cloud-a', [
      'cloud',
      'apikey',
      'issue',
      '--tenant',
      tenant.id,
      '--scope',
      'agent',
      '--db',
      DATABASE,
      '--json',
    ]),
  ) as { key: string };
  return { base, agentKey: key.key };
}

async function post(
  access: CloudAccess,
  path: string,
  body: unknown,
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${access.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access.agentKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = { nonJson: text.slice(0, 200) };
  }
  return { status: response.status, json };
}

export async function register(
  access: CloudAccess,
): Promise<{ lobe_name: string; propose_endpoint: string }> {
  const { status, json } = await post(access, '/api/v1/agentgate/register', {
    agent_name: `compose-agent-${Math.random().toString(36).slice(2, 8)}`,
    domain: 'FINANCE',
    capabilities: ['invoices.pay'],
    agent_version: '1.0.0',
    model_id: 'compose-model-1',
  });
  if (status !== 200 && status !== 201)
    throw new Error(`register answered ${status}: ${JSON.stringify(json)}`);
  return json as { lobe_name: string; propose_endpoint: string };
}

export interface ProposeResult {
  readonly httpStatus: number;
  readonly approved: boolean;
  readonly governance_token?: string;
  /** The decision's id (beside the specification's fields): the same for a repeat of the same tool_call.id. */
  readonly decision_id?: string;
  readonly violations: string[];
}

export async function propose(
  access: CloudAccess,
  lobeName: string,
  callId: string,
  spendAmount: number,
  toolName = 'invoices.pay',
): Promise<ProposeResult> {
  const { status, json } = await post(access, '/api/v1/agentgate/propose', {
    lobe_name: lobeName,
    spend_amount: spendAmount,
    tool_call: {
      id: callId,
      tool_name: toolName,
      arguments: { invoice: callId, amount: spendAmount },
      agent_confidence: 0.95,
      trigger_prompt: `Pay invoice ${callId} to Contoso Ltd.`,
    },
  });
  const body = json as {
    approved?: boolean;
    governance_token?: string;
    decision_id?: string;
    violations?: string[];
  };
  return {
    httpStatus: status,
    approved: body.approved === true,
    ...(body.governance_token !== undefined ? { governance_token: body.governance_token } : {}),
    ...(body.decision_id !== undefined ? { decision_id: body.decision_id } : {}),
    violations: body.violations ?? [],
  };
}

/** A ledger write the kernel allows, returning its proposal id. */
export async function kernelAuthorize(access: CloudAccess, key: string): Promise<string> {
  const { status, json } = await post(access, '/api/v1/kernel/authorize', {
    type: 'ledger:write',
    payload: { amount: 12, recipient: 'Contoso Ltd', reference: key },
    context: { agentId: 'compose-agent', confidenceScore: 0.95 },
  });
  const decision = json as { status?: string; proposalId?: string };
  if (status !== 200 || decision.status !== 'ALLOW' || !decision.proposalId) {
    throw new Error(`authorize answered ${status}: ${JSON.stringify(json)}`);
  }
  return decision.proposalId;
}

/**
 * Whether an answered decision is in the shared database: proposing the same tool_call.id again must return the
 * same decision (a call id is decided once per lobe and never reserved twice), whichever replica answers.
 */
export async function decisionIsStored(
  access: CloudAccess,
  lobeName: string,
  callId: string,
  decisionId: string,
): Promise<boolean> {
  const again = await propose(access, lobeName, callId, 1);
  return again.httpStatus === 200 && again.decision_id === decisionId;
}
