/**
 * Bearer authentication (RFC 6750 §2.1) and scope checks, as an onRequest hook so that nothing — not even
 * body parsing — runs for a caller without a valid key. A malformed key is refused before any database
 * lookup; a revoked key is refused like an unknown one, with its own message.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeyScope } from '../store/records.js';
import type { Store } from '../store/store.js';
import { API_KEY_PATTERN, apiKeyMatches, hashApiKey } from '../tenants/api-key.js';
import { ApiError } from './errors.js';
import './scopes.js';

/** Who is calling: resolved from the API key, the only source of tenant identity. */
export interface Caller {
  tenantId: string;
  keyId: string;
  scope: ApiKeyScope;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | undefined;
  }
}

const BEARER = /^Bearer ([^\s]+)$/;

/** The caller of a route that requires a key; routes call this instead of reading `request.caller`. */
export function callerOf(request: FastifyRequest): Caller {
  const caller = request.caller;
  if (!caller) throw new ApiError('UNAUTHENTICATED', 'this route needs a bearer API key');
  return caller;
}

export function registerAuth(app: FastifyInstance, store: Store): void {
  app.decorateRequest('caller', undefined);
  app.addHook('onRequest', async (request) => {
    const scopes = request.routeOptions.config.scopes;
    if (!scopes) return;
    const header = request.headers.authorization;
    if (header === undefined) {
      throw new ApiError('UNAUTHENTICATED', 'expected an Authorization: Bearer <API key> header, got none');
    }
    const key = BEARER.exec(header)?.[1];
    if (key === undefined || !API_KEY_PATTERN.test(key)) {
      throw new ApiError(
        'UNAUTHENTICATED',
        'expected Authorization: Bearer pgk_<43 base64url characters>, got a header of another form',
      );
    }
    const record = await store.findApiKeyByHash(hashApiKey(key));
    if (!record || !apiKeyMatches(key, record))
      throw new ApiError('UNAUTHENTICATED', 'the API key is not known');
    if (record.revokedAtMs !== null) throw new ApiError('UNAUTHENTICATED', 'the API key was revoked');
    request.caller = { tenantId: record.tenantId, keyId: record.id, scope: record.scope };
    if (!scopes.includes(record.scope)) {
      throw new ApiError(
        'SCOPE_FORBIDDEN',
        `this route needs a key of scope ${scopes.join(' or ')}, got a key of scope ${record.scope}`,
      );
    }
  });
}
