/**
 * Turns every error into `{ error: { code, message, details? } }` with a fitting status (ARCHITECTURE.md §5), and
 * records each refusal of a client in the audit log before answering — the one write bad input may cause.
 * Refusals of a caller with a valid key get an entry each; refusals without one, and every 429, go through
 * the address's refusal tally (refusal-tally.ts), so a flood is recorded without a write per request.
 *
 * Fastify's own errors are mapped by status: 413 → BODY_TOO_LARGE, 414 → URI_TOO_LONG, 415 →
 * UNSUPPORTED_MEDIA_TYPE, a bad percent-encoding → INVALID_URL, any other 4xx from the content-type layer →
 * INVALID_JSON. An error we do not recognise is a server fault (500): it is logged with its stack, and the
 * client sees no internals.
 */
import { storableText } from '@pentagate/protocol';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditLog } from '../audit/audit-log.js';
import { StoreError } from '../store/store-error.js';
import { withoutApiKeys } from '../tenants/api-key.js';
import { timedOutSockets } from './client-errors.js';
import { API_ERRORS, ApiError, errorBody } from './errors.js';
import type { RefusalTally } from './refusal-tally.js';
import type { RouteMethods } from './route-methods.js';
import { withoutUrlSecrets } from './url-secrets.js';
import { vetoBriefOf } from './veto-brief-errors.js';
import { isVerdictRefusal, refusedVerdictOf } from './verdict-errors.js';

/** Longest message kept in a refusal record; the client may have put anything in it. */
const MAX_AUDITED_MESSAGE = 512;

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof StoreError)
    return new ApiError('STORE_UNAVAILABLE', 'the store could not complete the request');
  const e = err as Partial<FastifyError>;
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status === 413) return new ApiError('BODY_TOO_LARGE', `request body: ${e.message ?? 'too large'}`);
  if (status === 414) return new ApiError('URI_TOO_LONG', 'a path parameter is longer than 100 characters');
  if (status === 415) {
    return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'request body: expected Content-Type application/json');
  }
  if (e.code === 'FST_ERR_BAD_URL') {
    return new ApiError('INVALID_URL', 'expected a path of valid percent-encoded UTF-8, got another');
  }
  if (status >= 400 && status < 500) {
    if (e.validationContext) return new ApiError('INVALID_BODY', e.message ?? 'invalid request');
    return new ApiError('INVALID_JSON', `request body: ${e.message ?? 'malformed'}`);
  }
  return new ApiError('INTERNAL', 'internal error; the request changed nothing');
}

/**
 * A refusal's message as a refusal record can hold it. The client may have put in it (a query member's
 * name, say) a lone surrogate, which no canonical entry can hold, or U+0000, which PostgreSQL text cannot:
 * either would make the record unwritable and the refusal a 503. Both become U+FFFD. An API key quoted in
 * it (a key pasted as a path parameter) is masked: the record stays in the tenant's log for good.
 */
function auditableMessage(error: ApiError): string {
  return storableText(shownMessage(error).slice(0, MAX_AUDITED_MESSAGE));
}

/**
 * A refusal's message as it may be shown and recorded: a key pasted where it quotes what was sent is masked;
 * a 404 quotes what the client named (a path, an id), which may be any credential, so every token-like run
 * in it is masked too (url-secrets.ts).
 */
function shownMessage(error: ApiError): string {
  return error.statusCode === 404 ? withoutUrlSecrets(error.message) : withoutApiKeys(error.message);
}

/** The path as a message or a refusal record may quote it (url-secrets.ts). */
function pathOf(request: FastifyRequest): string {
  return withoutUrlSecrets(request.url.split('?')[0]!).slice(0, 256);
}

function routeOf(request: FastifyRequest): string {
  return request.routeOptions?.url ?? pathOf(request);
}

export interface ErrorHandling {
  audit: AuditLog;
  tally: RefusalTally;
  routes: RouteMethods;
}

export type ErrorResponder = (err: unknown, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Sets the error and not-found handlers; returns the error handler for errors raised outside a route. */
export function registerErrorHandler(
  app: FastifyInstance,
  { audit, tally, routes }: ErrorHandling,
): ErrorResponder {
  const respond: ErrorResponder = async (err, request, reply) => {
    // the body reader's "aborted" after a 408 on this socket (client-errors.ts) is that 408
    const apiError = timedOutSockets.has(request.raw.socket)
      ? new ApiError('REQUEST_TIMEOUT', API_ERRORS.REQUEST_TIMEOUT.meaning)
      : toApiError(err);
    // Refused before its body was read (no key, another scope, rate limited): Node would read and drop the
    // rest to keep the connection alive, however large, with no key and past every body limit. Closing it
    // ends the upload at the refusal.
    if (!request.raw.complete) reply.header('connection', 'close');
    if (apiError.code === 'INTERNAL' || apiError.code === 'STORE_UNAVAILABLE') {
      request.log.error({ err }, 'request failed');
    }
    // a draining server answers 503 without a write: the store is closing
    if (apiError.statusCode < 500) {
      const caller = request.caller;
      const byAddress = caller === undefined || apiError.code === 'RATE_LIMITED';
      if (!byAddress || tally.note(request.ip, apiError.code)) {
        try {
          await audit.append({
            type: 'refusal',
            tenantId: caller?.tenantId,
            actor: caller?.keyId,
            data: {
              ...(byAddress ? { address: request.ip } : {}),
              method: request.method,
              route: routeOf(request),
              status: apiError.statusCode,
              code: apiError.code,
              message: auditableMessage(apiError),
            },
          });
        } catch (auditErr) {
          // fail closed: a refusal that cannot be recorded is answered as a store failure
          request.log.error({ err: auditErr }, 'refusal could not be audited');
          const unavailable = new ApiError('STORE_UNAVAILABLE', 'the store could not record the refusal');
          return reply.code(unavailable.statusCode).send(errorBody(unavailable.code, unavailable.message));
        }
      }
    }
    // a refusal may quote what was sent (a path parameter, a lobe name): a key pasted there is masked
    const body = errorBody(apiError.code, shownMessage(apiError), apiError.details);
    if (apiError.statusCode === 403 && request.routeOptions.config?.vetoBriefErrors === true) {
      return reply.code(403).send(vetoBriefOf(apiError, body));
    }
    if (isVerdictRefusal(apiError.statusCode) && request.routeOptions.config?.verdictErrors === true) {
      return reply.code(apiError.statusCode).send(refusedVerdictOf(apiError, body));
    }
    return reply.code(apiError.statusCode).send(body);
  };
  app.setErrorHandler(respond);

  app.setNotFoundHandler(async (request, reply) => {
    // matched on the path as sent (only the answer quotes it, masked)
    const allowed = routes.allowed(request.url.split('?')[0]!);
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      throw new ApiError(
        'METHOD_NOT_ALLOWED',
        `${pathOf(request)} answers ${allowed.join(', ')}, not ${request.method.slice(0, 16)}`,
      );
    }
    throw new ApiError('NOT_FOUND', `no route ${request.method.slice(0, 16)} ${pathOf(request)}`);
  });
  return respond;
}

export { API_ERRORS };
