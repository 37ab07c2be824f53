/**
 * Headers on every `/api/` answer. `Cache-Control: no-store` (RFC 9111 §5.2.2.5): the answers carry
 * approvals with their payloads, audit entries and consent requests, which an operator's or auditor's
 * browser must not keep in its disk cache after the session (sessionStorage holds the key, nothing else
 * should outlive it). `X-Content-Type-Options: nosniff` (Fetch §3.6): a JSON answer is never read as
 * script or HTML, whatever text an agent put into it. The console's pages set their own (register-console.ts).
 */
import type { FastifyInstance } from 'fastify';

const API_PREFIX = '/api/';

export function registerApiResponseHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith(API_PREFIX)) {
      reply.header('cache-control', 'no-store');
      reply.header('x-content-type-options', 'nosniff');
    }
    done();
  });
}
