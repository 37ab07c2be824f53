/**
 * The decision row's `verdict` JSON as a kernel decision writes and reads it. What the row's own columns
 * (id, tenant_id, agent_id, outcome) or the replay input already hold is written once:
 * - the proposal id (the row's id) in neither the decision body nor the replay input;
 * - the agent's tenant and id (the row's columns) not in the replay input's agent identity;
 * - the policy digest once, in the replay input (`policyDigest`), not again in the body and the cited policy;
 * - a tool call's arguments once, in the governed form, when the kernel form carries the very same object
 *   (the agent routes build both from the request's arguments).
 * The status is the row's outcome column. Without these copies a row of the bench's propose fits twice in a
 * 4 KB page instead of once. `readStoredVerdict` puts every field back, so replay, approvals, execution and
 * repeats see the record as it was decided; a field written in full (a digest that differed, rows written
 * before this form) is read as written.
 */
import type { ProposedAction } from '@pentagate/protocol';
import type { DecisionRecord } from '../store/records.js';
import type { DecisionBody } from './decide.js';
import type { KernelDecisionRecord, ReplayInput } from './replay-input.js';

export interface KernelVerdict {
  reason: string;
  decision: DecisionBody;
  kernel: KernelDecisionRecord;
}

/** The row's own columns a verdict may repeat. */
export interface DecisionRowKey {
  id: string;
  tenantId: string;
  agentId: string;
}

/**
 * The verdict JSON of a new decision row, its copies left out. A field is left out only when it equals what
 * the reader puts back, so a record whose ids or digests differ is written with them.
 */
export function storedVerdict(v: KernelVerdict, row: DecisionRowKey): Record<string, unknown> {
  const { input } = v.kernel;
  const { proposalId: bodyId, policyDigest: bodyDigest, ...body } = v.decision;
  const { proposalId: inputId, agent, action, ...rest } = input;
  const { agentId, tenantId, ...agentRest } = agent;
  const payload = action.payload as Record<string, unknown> | undefined;
  const sharedArguments =
    input.governed !== undefined &&
    payload?.arguments !== undefined &&
    payload.arguments === input.governed.arguments;
  const storedAction: ProposedAction = sharedArguments
    ? { ...action, payload: withoutArguments(payload!) }
    : action;
  const { digest: policyDigest, ...policy } = v.kernel.policy;
  return {
    reason: v.reason,
    decision: {
      ...(bodyId === row.id ? {} : { proposalId: bodyId }),
      ...body,
      ...(bodyDigest === input.policyDigest ? {} : { policyDigest: bodyDigest }),
    },
    kernel: {
      ...v.kernel,
      input: {
        ...(inputId === row.id ? {} : { proposalId: inputId }),
        ...rest,
        action: storedAction,
        ...(sharedArguments ? { argumentsInGoverned: true } : {}),
        agent: {
          ...(agentId === row.agentId ? {} : { agentId }),
          ...(tenantId === row.tenantId ? {} : { tenantId }),
          ...agentRest,
        },
      },
      policy: policyDigest === input.policyDigest ? policy : v.kernel.policy,
    },
  };
}

function withoutArguments(payload: Record<string, unknown>): Record<string, unknown> {
  const { arguments: _args, ...rest } = payload;
  return rest;
}

type StoredInput = Omit<ReplayInput, 'proposalId' | 'agent'> & {
  proposalId?: string;
  agent: Partial<ReplayInput['agent']>;
  argumentsInGoverned?: true;
};

/** The kernel part of a decision row, every field back in place; undefined for a row of no kernel decision. */
export function readStoredVerdict(record: DecisionRecord): KernelVerdict | undefined {
  const v = record.verdict as {
    reason?: unknown;
    decision?: Omit<DecisionBody, 'proposalId' | 'policyDigest'> & { policyDigest?: string };
    kernel?: Omit<KernelDecisionRecord, 'input' | 'policy'> & {
      input: StoredInput;
      policy: { id: string; digest?: string };
    };
  };
  if (!v.kernel || !v.decision) return undefined;
  const { argumentsInGoverned, ...stored } = v.kernel.input;
  const action = argumentsInGoverned
    ? {
        ...stored.action,
        payload: { ...(stored.action.payload as object), arguments: stored.governed?.arguments },
      }
    : stored.action;
  const input: ReplayInput = {
    ...stored,
    proposalId: stored.proposalId ?? record.id,
    action,
    agent: { agentId: record.agentId, tenantId: record.tenantId, ...stored.agent } as ReplayInput['agent'],
  };
  return {
    reason: String(v.reason ?? ''),
    decision: {
      proposalId: record.id,
      ...v.decision,
      policyDigest: v.decision.policyDigest ?? input.policyDigest,
    } as DecisionBody,
    kernel: {
      ...v.kernel,
      input,
      policy: { id: v.kernel.policy.id, digest: v.kernel.policy.digest ?? input.policyDigest },
    },
  };
}
