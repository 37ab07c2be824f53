/**
 * Bearer authentication (RFC 6750 §2.1) and scope checks, as an onRequest hook so that nothing — not even
 * body parsing — runs for a caller without a valid key. A malformed key is refused before any database
 * lookup; a revoked key is refused like an unknown one, with its own message.
 *
 * The key is resolved once per request, before rate limiting, so that the limiter can count a valid key
 * on its own budget and everything else — no key, a malformed, unknown or revoked one — on the budget of
 * its address (a flood of invented keys would otherwise get a fresh budget per key).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeyScope } from '../store/records.js';
import type { Store } from '../store/store.js';
import { API_KEY_PATTERN, apiKeyMatches, hashApiKey } from '../tenants/api-key.js';
import { ApiError } from './errors.js';
import { headerFieldCount } from './header-fields.js';
import './scopes.js';

/** Who is calling: resolved from the API key, the only source of tenant identity. */
export interface Caller {
  tenantId: string;
  keyId: string;
  scope: ApiKeyScope;
  /** The jurisdiction the tenant's administrator bound to the key, if any (never taken from a request). */
  region?: string;
  department?: string;
  /** The agent_name an agent key is bound to, if any: the only agent it may act as (agent-binding.ts). */
  agentName?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | undefined;
  }
}

/** What the Authorization header amounts to: a caller, or the refusal a keyed route would answer. */
export type Authentication = { caller: Caller } | { refusal: ApiError };

/** RFC 6750 §2.1 `"Bearer" 1*SP b64token`; the scheme is case-insensitive (RFC 9110 §11.1). */
const BEARER = /^bearer +([^\s]+)$/i;

/** RFC 6750 §3: a 401 names the scheme; `invalid_token` when a key was presented and refused. */
function wwwAuthenticate(headerGiven: boolean): string {
  return headerGiven ? 'Bearer realm="pentagate", error="invalid_token"' : 'Bearer realm="pentagate"';
}

/** The caller of a route that requires a key; routes call this instead of reading `request.caller`. */
export function callerOf(request: FastifyRequest): Caller {
  const caller = request.caller;
  if (!caller) throw new ApiError('UNAUTHENTICATED', 'this route needs a bearer API key');
  return caller;
}

/**
 * Schemes a refusal may name: the IANA HTTP Authentication Scheme Registry and the common unregistered ones.
 * Any other first word is not repeated: it may be a credential sent without a scheme.
 */
const KNOWN_SCHEMES = new Set(
  ['Basic', 'Digest', 'DPoP', 'GNAP', 'HOBA', 'Mutual', 'Negotiate', 'NTLM', 'OAuth', 'PrivateToken']
    .concat(['SCRAM-SHA-1', 'SCRAM-SHA-256', 'vapid', 'AWS4-HMAC-SHA256', 'Token', 'ApiKey', 'Api-Key'])
    .map((name) => name.toLowerCase()),
);

/**
 * What is wrong with an Authorization header that does not carry a Pentagate key, so that the caller can fix
 * it (another service's key sent by mistake, the key without its scheme). The token itself is never repeated:
 * it may be a secret of the caller's, and refusals are written to the audit log.
 */
function malformedHeader(header: string, token: string | undefined): string {
  if (token !== undefined) {
    const shape = token.startsWith('pgk_')
      ? 'pgk_ not followed by exactly 43 base64url characters'
      : 'not starting with pgk_';
    return `a Bearer token that is not a Pentagate API key (${token.length} characters, ${shape})`;
  }
  if (header.trim() === '') return 'an empty header';
  const words = header.trim().split(/\s+/);
  const scheme = words[0] ?? '';
  if (scheme.toLowerCase() !== 'bearer') {
    if (words.length === 1) return 'no scheme, only a token: put Bearer and a space before the key';
    return KNOWN_SCHEMES.has(scheme.toLowerCase()) ? `the scheme ${scheme}` : 'another scheme than Bearer';
  }
  if (words.length === 1) return 'Bearer and no key';
  // RFC 6750 §2.1: spaces, and only spaces, separate the scheme from the token
  if (words.length === 2) return 'Bearer and the key separated by another character than spaces';
  return 'Bearer followed by more than one word (a key has no spaces)';
}

async function resolve(header: string | undefined, store: Store): Promise<Authentication> {
  if (header === undefined) {
    return {
      refusal: new ApiError(
        'UNAUTHENTICATED',
        'expected an Authorization: Bearer <API key> header, got none',
      ),
    };
  }
  const key = BEARER.exec(header)?.[1];
  if (key === undefined || !API_KEY_PATTERN.test(key)) {
    return {
      refusal: new ApiError(
        'UNAUTHENTICATED',
        `expected Authorization: Bearer pgk_<43 base64url characters>, got ${malformedHeader(header, key)}`,
      ),
    };
  }
  const record = await store.findApiKeyByHash(hashApiKey(key));
  if (!record || !apiKeyMatches(key, record)) {
    return { refusal: new ApiError('UNAUTHENTICATED', 'the API key is not known') };
  }
  if (record.revokedAtMs !== null)
    return { refusal: new ApiError('UNAUTHENTICATED', 'the API key was revoked') };
  const caller: Caller = { tenantId: record.tenantId, keyId: record.id, scope: record.scope };
  if (record.region !== null) caller.region = record.region;
  if (record.department !== null) caller.department = record.department;
  if (record.agentName !== null) caller.agentName = record.agentName;
  return { caller };
}

const resolved = new WeakMap<FastifyRequest, Promise<Authentication>>();

/** Resolves the request's key once; later calls for the same request share the answer. */
export function authenticate(request: FastifyRequest, store: Store): Promise<Authentication> {
  let authentication = resolved.get(request);
  if (authentication === undefined) {
    authentication =
      headerFieldCount(request.raw.rawHeaders, 'authorization') > 1
        ? // a proxy reading the last field would see another caller than this server, which reads the first
          Promise.resolve({
            refusal: new ApiError('INVALID_HEADERS', 'expected one Authorization header, got several'),
          })
        : resolve(request.headers.authorization, store);
    resolved.set(request, authentication);
  }
  return authentication;
}

/**
 * Whether the request's key still authenticates, looked up again (not the answer cached for the request):
 * a response that outlives its request — the live stream — must end once its key is revoked, also when
 * another process (`apikey revoke`, `robot retire`) revoked it.
 */
export async function stillAuthenticated(request: FastifyRequest, store: Store): Promise<boolean> {
  return 'caller' in (await resolve(request.headers.authorization, store));
}

/** Runs after the key is resolved and before any refusal for it: throws RATE_LIMITED when over budget. */
export type RequestLimiter = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export function registerAuth(app: FastifyInstance, store: Store, limiter?: RequestLimiter): void {
  app.decorateRequest('caller', undefined);
  app.addHook('onRequest', async (request, reply) => {
    const authentication = await authenticate(request, store);
    // a valid key is known on every route, so its refusals (404, 405, …) are recorded under its tenant
    if ('caller' in authentication) request.caller = authentication.caller;
    if (limiter) await limiter(request, reply);
    const scopes = request.routeOptions.config?.scopes;
    if (!scopes) return;
    if ('refusal' in authentication) {
      if (authentication.refusal.code === 'UNAUTHENTICATED') {
        reply.header('www-authenticate', wwwAuthenticate(request.headers.authorization !== undefined));
      }
      throw authentication.refusal;
    }
    const { scope } = authentication.caller;
    if (!scopes.includes(scope)) {
      throw new ApiError(
        'SCOPE_FORBIDDEN',
        `this route needs a key of scope ${scopes.join(' or ')}, got a key of scope ${scope}`,
      );
    }
  });
}
