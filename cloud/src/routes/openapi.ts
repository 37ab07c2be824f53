/** `GET /openapi.json`: the whole API as OpenAPI 3.1, generated from the route schemas. */
import type { FastifyInstance } from 'fastify';

export function registerOpenApi(app: FastifyInstance): void {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
