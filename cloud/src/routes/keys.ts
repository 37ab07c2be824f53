/** `GET /api/v1/keys`: the TrustDocument of every proof and checkpoint key this log has used. */
import { TrustDocumentSchema } from '@pentagate/protocol';
import type { FastifyInstance } from 'fastify';
import type { CloudContext } from '../app/context.js';
import { ROUTE_SCOPES } from '../app/scopes.js';
import { trustDocumentOf } from '../keys/trust-document.js';
import { ERROR_RESPONSES } from './error-responses.js';

export function registerKeys(app: FastifyInstance, cloud: CloudContext): void {
  app.get(
    '/api/v1/keys',
    {
      config: { scopes: ROUTE_SCOPES.keys },
      schema: {
        summary:
          'Public keys (roles proof and checkpoint) with validity windows; a saved response is a trust file',
        response: { 200: TrustDocumentSchema, ...ERROR_RESPONSES },
      },
    },
    async () => trustDocumentOf(await cloud.store.listSigningKeys()),
  );
}
