/**
 * The agent behind a proposal: `context.agentId` of the caller's tenant. An agent the tenant never
 * registered is registered on first contact (as `/selfcorrect` does), with lobe = agent id, domain GENERAL
 * and version `kernel`, and its `agent.registered` audit entry.
 */
import { ApiError } from '../app/errors.js';
import { registerAgent } from '../routes/agentgate-register.js';
import type { AgentRecord } from '../store/records.js';
import type { KernelContext } from './kernel-context.js';

export const KERNEL_FIRST_CONTACT_VERSION = 'kernel';

export async function kernelAgent(
  k: KernelContext,
  tenantId: string,
  agentId: string,
  actor: string,
  nowMs: number,
): Promise<AgentRecord> {
  const known = await k.cloud.store.findAgentById(tenantId, agentId);
  if (known) return known;
  const outcome = await registerAgent(
    k.cloud.store,
    {
      tenantId,
      id: agentId,
      name: agentId,
      version: KERNEL_FIRST_CONTACT_VERSION,
      domain: 'GENERAL',
      lobeName: agentId,
      metadata: { registeredBy: 'kernel' },
      actor,
    },
    nowMs,
  );
  if ('conflict' in outcome) {
    throw new ApiError(
      'INVALID_BODY',
      `context.agentId: ${JSON.stringify(agentId)} is the lobe name of another agent of your tenant; use that agent's id`,
    );
  }
  return outcome.agent;
}
