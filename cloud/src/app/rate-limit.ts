/**
 * Rate limiting (@fastify/rate-limit, its in-memory store): a request with a valid API key counts on that
 * key's budget; every other request — no key, or a malformed, unknown or revoked one — counts on its
 * address's budget (an IPv6 address's /64, address-budget.ts), which is smaller by default. The limiter runs
 * inside the authentication hook, after the key is resolved and before any refusal is answered or recorded,
 * so an unauthenticated flood is answered 429 at the cost of one indexed key lookup and no write per request.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Store } from '../store/store.js';
import { authenticate, type RequestLimiter } from './auth.js';
import { addressBudgetKey } from './address-budget.js';
import { ApiError } from './errors.js';

export interface RateLimitOptions {
  /** Requests allowed per valid API key per window. */
  max: number;
  /** Requests allowed per address per window without a valid key (default max / 5, at least 1). */
  maxWithoutKey?: number;
  timeWindowMs: number;
  /** Request-body bytes allowed per valid API key per window (default DEFAULT_MAX_BODY_BYTES, 32 MiB). */
  maxBodyBytes?: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { max: 600, timeWindowMs: 60_000 };

async function budgetKey(request: FastifyRequest, store: Store): Promise<string> {
  const authentication = await authenticate(request, store);
  return 'caller' in authentication
    ? `key:${authentication.caller.keyId}`
    : `ip:${addressBudgetKey(request.ip)}`;
}

/** Registers the plugin without its per-route hooks and returns the limiter the auth hook calls. */
export async function registerRateLimit(
  app: FastifyInstance,
  store: Store,
  options: RateLimitOptions,
): Promise<RequestLimiter> {
  const maxWithoutKey = options.maxWithoutKey ?? Math.max(1, Math.floor(options.max / 5));
  await app.register(rateLimit, {
    global: false,
    timeWindow: options.timeWindowMs,
    max: (_request, key) => (key.startsWith('key:') ? options.max : maxWithoutKey),
    keyGenerator: (request) => budgetKey(request, store),
    errorResponseBuilder: (_request, context) =>
      new ApiError(
        'RATE_LIMITED',
        `more than ${context.max} requests in ${options.timeWindowMs / 1000} s; retry in ${context.after}`,
      ),
  });
  return app.rateLimit() as RequestLimiter;
}
