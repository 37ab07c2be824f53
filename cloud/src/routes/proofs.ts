/**
 * `GET /api/v1/proofs/:decisionId` → ProofPacket: the signed decision envelope, its audit entry, the
 * entry's inclusion proof and the signed checkpoint that proof reaches. Only the caller's tenant's
 * decisions are found; another tenant's id is answered exactly like an unknown one (404).
 */
import {
  IdentifierSchema,
  ProofPacketSchema,
  type DsseEnvelope,
  type ProofPacket,
} from '@pentagate/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../app/auth.js';
import type { CloudContext } from '../app/context.js';
import { ApiError } from '../app/errors.js';
import { ROUTE_SCOPES } from '../app/scopes.js';
import { ERROR_RESPONSES } from './error-responses.js';

const ParamsSchema = Type.Object({ decisionId: IdentifierSchema }, { additionalProperties: false });

export async function proofPacket(
  cloud: CloudContext,
  tenantId: string,
  decisionId: string,
): Promise<ProofPacket> {
  const decision = await cloud.store.getDecision(tenantId, decisionId);
  if (!decision) {
    throw new ApiError(
      'DECISION_NOT_FOUND',
      `decisionId: expected a decision of your tenant, got ${JSON.stringify(decisionId)}`,
    );
  }
  const [record] = await cloud.store.auditEntries(decision.auditIndex, decision.auditIndex + 1);
  const checkpoint = await cloud.audit.checkpoint();
  const inclusion = await cloud.audit.inclusion(decision.auditIndex, checkpoint.size);
  return {
    v: 1,
    envelope: decision.envelope as unknown as DsseEnvelope,
    ...(record ? { auditEntry: record.entry } : {}),
    inclusion,
    checkpoint: checkpoint.note,
  };
}

export function registerProofs(app: FastifyInstance, cloud: CloudContext): void {
  app.get(
    '/api/v1/proofs/:decisionId',
    {
      config: { scopes: ROUTE_SCOPES.proofs },
      schema: {
        summary: 'The proof packet of one decision, with its inclusion proof and a signed checkpoint',
        params: ParamsSchema,
        response: { 200: ProofPacketSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { decisionId } = request.params as { decisionId: string };
      return proofPacket(cloud, caller.tenantId, decisionId);
    },
  );
}
