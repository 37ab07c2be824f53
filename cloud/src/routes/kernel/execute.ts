/**
 * `POST /api/v1/kernel/execute` `{ proposalId }` → ExecutionResult, exactly once per proposal: a second
 * call is 409 DOUBLE_EXECUTION; a denied, vetoed, expired or still pending one is 403 EXECUTION_DENIED.
 */
import { ExecutionResultSchema, IdentifierSchema } from '@pentagate/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../../app/auth.js';
import { ROUTE_SCOPES } from '../../app/scopes.js';
import { execute } from '../../kernel/execute.js';
import type { KernelContext } from '../../kernel/kernel-context.js';
import { ERROR_RESPONSES } from '../error-responses.js';

export const ExecuteRequestSchema = Type.Object(
  { proposalId: IdentifierSchema },
  { additionalProperties: false },
);

export function registerKernelExecute(app: FastifyInstance, k: KernelContext): void {
  app.post(
    '/api/v1/kernel/execute',
    {
      config: { scopes: ROUTE_SCOPES.agent },
      schema: {
        summary: 'Execute an allowed, approved or elapsed-hold proposal, exactly once',
        body: ExecuteRequestSchema,
        response: { 200: ExecutionResultSchema, ...ERROR_RESPONSES, 409: ERROR_RESPONSES[403] },
      },
    },
    async (request) => execute(k, callerOf(request), (request.body as { proposalId: string }).proposalId),
  );
}
