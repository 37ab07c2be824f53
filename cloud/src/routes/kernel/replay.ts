/**
 * `GET /api/v1/kernel/replay/:proposalId[?policy=<digest>]` → ReplayResult: the stored decision re-decided
 * from its stored input under its policy version, or under another stored version (what-if).
 */
import { IdentifierSchema, ReplayResultSchema, Sha256HexSchema } from '@pentagate/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { requireReadableDecision } from '../../app/agent-read-scope.js';
import { callerOf } from '../../app/auth.js';
import { proposalNotFound } from '../../kernel/kernel-decision.js';
import { ROUTE_SCOPES } from '../../app/scopes.js';
import type { KernelContext } from '../../kernel/kernel-context.js';
import { replay } from '../../kernel/replay.js';
import { ERROR_RESPONSES } from '../error-responses.js';

const Params = Type.Object({ proposalId: IdentifierSchema }, { additionalProperties: false });
const Query = Type.Object({ policy: Type.Optional(Sha256HexSchema) }, { additionalProperties: false });

export function registerKernelReplay(app: FastifyInstance, k: KernelContext): void {
  app.get(
    '/api/v1/kernel/replay/:proposalId',
    {
      config: { scopes: ROUTE_SCOPES.proofs },
      schema: {
        summary:
          'Re-decide a proposal from its stored input (optionally under another stored policy version)',
        params: Params,
        querystring: Query,
        response: { 200: ReplayResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { proposalId } = request.params as { proposalId: string };
      const { policy } = request.query as { policy?: string };
      const caller = callerOf(request);
      await requireReadableDecision(k.cloud.store, caller, proposalId, () => proposalNotFound(proposalId));
      return replay(k, caller.tenantId, proposalId, policy);
    },
  );
}
