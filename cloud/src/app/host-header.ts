/**
 * RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1 request
 * message that lacks a Host header field and to any request message that contains more than one Host
 * header field". Node answers a missing Host itself, with an empty 400 body, unless `requireHostHeader`
 * is off; it is turned off (build-app.ts) so this hook answers both cases in the documented format and the
 * refusal is recorded like any other.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.js';
import { headerFieldCount } from './header-fields.js';

export function requireOneHost(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const fields = headerFieldCount(request.raw.rawHeaders, 'host');
    if (fields > 1) {
      throw new ApiError('INVALID_HEADERS', `expected one Host header, got ${fields} (RFC 9112 §3.2)`);
    }
    if (fields === 0 && request.raw.httpVersion === '1.1') {
      throw new ApiError('INVALID_HEADERS', 'an HTTP/1.1 request must carry a Host header (RFC 9112 §3.2)');
    }
  });
}
