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
  canonicalize,
} from '@pentagate/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { requireReadableDecision } from '../app/agent-read-scope.js';
import { callerOf } from '../app/auth.js';
import type { CloudContext } from '../app/context.js';
import { ApiError } from '../app/errors.js';
import { ROUTE_SCOPES } from '../app/scopes.js';
import { signedDecisionIdOf } from '../decisions/decision-statement.js';
import { leafHashOfText } from '../store/audit/audit-leaf.js';
import { StoreError } from '../store/store-error.js';
import { ERROR_RESPONSES } from './error-responses.js';

const ParamsSchema = Type.Object({ decisionId: IdentifierSchema }, { additionalProperties: false });

function decisionNotFound(decisionId: string): ApiError {
  return new ApiError(
    'DECISION_NOT_FOUND',
    `decisionId: expected a decision of your tenant, got ${JSON.stringify(decisionId)}`,
  );
}

export async function proofPacket(
  cloud: CloudContext,
  tenantId: string,
  decisionId: string,
): Promise<ProofPacket> {
  const decision = await cloud.store.getDecision(tenantId, decisionId);
  if (!decision) throw decisionNotFound(decisionId);
  const envelope = decision.envelope as unknown as DsseEnvelope;
  // The decision row finds its entry by index. A row changed outside the cloud can point at another
  // decision's entry, whose packet verifies — as the proof of the wrong decision (or another tenant's).
  const signedId = signedDecisionIdOf(envelope);
  if (signedId !== decisionId) {
    throw new StoreError(
      `decision ${decisionId}: expected its audit entry ${decision.auditIndex} to hold its signed decision, got ${signedId}`,
    );
  }
  return packetOfEntry(cloud, envelope, decision.auditIndex);
}

/**
 * The proof packet of the signed `envelope` recorded in audit entry `auditIndex` (a decision, or an
 * operator's approval of one): the entry, its inclusion proof and the checkpoint that proof reaches.
 */
export async function packetOfEntry(
  cloud: CloudContext,
  envelope: DsseEnvelope,
  auditIndex: number,
): Promise<ProofPacket> {
  const [record] = await cloud.store.auditEntries(auditIndex, auditIndex + 1);
  const checkpoint = await cloud.audit.checkpoint();
  // An entry whose text is not the leaf the signed tree holds was changed outside the cloud (text alone,
  // or text and stored leaf hash): its packet cannot verify, and the cloud knows it before the auditor.
  if (
    record &&
    !Buffer.from(leafHashOfText(canonicalize(record.entry))).equals(cloud.audit.leafHashAt(record.index))
  ) {
    throw new StoreError(
      `audit log: entry ${record.index}: its text does not hash to the leaf the log holds at ${record.index}`,
    );
  }
  const inclusion = await cloud.audit.inclusion(auditIndex, checkpoint.size);
  return {
    v: 1,
    envelope,
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
      await requireReadableDecision(cloud.store, caller, decisionId, () => decisionNotFound(decisionId));
      return proofPacket(cloud, caller.tenantId, decisionId);
    },
  );
}
