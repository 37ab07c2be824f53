/**
 * The optional bearer token of `/metrics` (`buildApp({ metricsToken })`, `cloud serve --metrics-token-file`).
 * The metrics name every route with its request counts and latencies and the decisions by outcome: what a
 * tenant's agents are doing and how often they are refused, for anyone who can reach the port (last review,
 * item 6). Without a token `/metrics` stays open, as before — for a scraper on an internal network; with one,
 * a request without `Authorization: Bearer <token>` is refused 401 UNAUTHENTICATED. The token is no API key:
 * it opens `/metrics` and nothing else, and no API key opens `/metrics`.
 */
import { sha256, timingSafeEqual } from '@pentagate/crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';

const BEARER = /^Bearer (.+)$/;

/** A request hook refusing every request that does not carry `token` as its bearer token. */
export function requireMetricsToken(
  token: string,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  // compared as digests: equal lengths, and the time taken says nothing about the token
  const expected = sha256(new TextEncoder().encode(token));
  return async (request, reply) => {
    const sent = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (sent !== undefined && timingSafeEqual(sha256(new TextEncoder().encode(sent)), expected)) return;
    reply.header('www-authenticate', 'Bearer realm="metrics"');
    throw new ApiError(
      'UNAUTHENTICATED',
      sent === undefined
        ? 'expected an Authorization: Bearer <metrics token> header (serve --metrics-token-file), got none'
        : 'the metrics token is not the one this server was started with',
    );
  };
}
