/**
 * Cross-origin access to the API for agents in a browser page (`cloud serve --cors-origin`,
 * `buildApp({ corsOrigins })`). A client needs nothing but the standard fetch facility (specification §1
 * item 4), and fetch from a page on another origin reaches the API only if the server takes part in the CORS
 * protocol (Fetch standard §3.2). Off unless origins are named; then only those exact origins, never a
 * wildcard, and never `Access-Control-Allow-Credentials`: the page sends its API key itself in
 * Authorization, so no cookie or other ambient credential is ever needed. Only paths under /api/ take part:
 * the console is served to its own origin and keeps its CSP unchanged.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DECISION_ID_HEADER } from '../routes/agentgate-propose.js';
import type { RouteMethods } from './route-methods.js';

/** The request headers the API reads that are not CORS-safelisted: the key, and the body's media type. */
const ALLOWED_HEADERS = 'authorization, content-type';
/** The response headers a client reads beyond the safelisted ones (GovClient reads retry-after). */
const EXPOSED_HEADERS = ['retry-after', 'www-authenticate', 'allow', DECISION_ID_HEADER].join(', ');
/** How long a browser may reuse a preflight's answer: 10 minutes, so a narrowed list soon applies. */
const MAX_AGE_SECONDS = '600';

/**
 * Parses one `--cors-origin`: an http(s) origin exactly as a browser sends it in `Origin` (scheme and host
 * in lower case, no default port, no path, no trailing slash), since the check is an exact comparison.
 */
export function corsOriginOf(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  const problem = text.includes('*')
    ? 'a wildcard is not accepted; name each origin'
    : url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')
      ? 'expected an http(s) origin, scheme://host[:port]'
      : url.origin !== text
        ? `expected the origin exactly as a browser sends it, ${url.origin}`
        : undefined;
  if (problem) throw new RangeError(`CORS origin ${JSON.stringify(text)}: ${problem}`);
  return text;
}

/** Sets an answer's CORS headers; true when the request came from an allowed origin. */
export type CorsHeaders = (request: FastifyRequest, reply: FastifyReply) => boolean;

/**
 * Adds the CORS headers for the allowed `origins` (registered before every other request hook) and returns
 * the function that adds them, for the answers given before the request hooks run (a malformed URL).
 */
export function registerCors(
  app: FastifyInstance,
  origins: readonly string[],
  routes: RouteMethods,
): CorsHeaders {
  if (origins.length === 0) return () => false;
  const allowed = new Set(origins.map(corsOriginOf));
  const corsHeaders: CorsHeaders = (request, reply) => {
    if (!request.url.startsWith('/api/')) return false;
    // the answer depends on Origin: a shared cache must not give one origin's answer to another
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return false;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    return true;
  };
  app.addHook('onRequest', async (request, reply) => {
    if (!corsHeaders(request, reply)) return;
    const methods = routes.allowed(request.url.split('?')[0]!);
    if (
      request.method !== 'OPTIONS' ||
      request.headers['access-control-request-method'] === undefined ||
      methods.length === 0
    )
      return;
    // a preflight carries no key and does nothing: answered before authentication and rate limits
    return reply
      .code(204)
      .removeHeader('access-control-expose-headers')
      .header('access-control-allow-methods', methods.join(', '))
      .header('access-control-allow-headers', ALLOWED_HEADERS)
      .header('access-control-max-age', MAX_AGE_SECONDS)
      .send();
  });
  return corsHeaders;
}
