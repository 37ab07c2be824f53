/**
 * Turns every error into `{ error: { code, message, details? } }` with a fitting status (DESIGN.md §5), and
 * records each refusal of a client in the audit log before answering — the one write bad input may cause.
 *
 * Fastify's own errors are mapped by status: 413 → BODY_TOO_LARGE, 415 → UNSUPPORTED_MEDIA_TYPE, any other
 * 4xx from the content-type layer → INVALID_JSON. An error we do not recognise is a server fault (500): it is
 * logged with its stack, and the client sees no internals.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditLog } from '../audit/audit-log.js';
import { StoreError } from '../store/store-error.js';
import { API_ERRORS, ApiError, type ApiErrorCode, errorBody } from './errors.js';

/** Refusals not written to the audit log: a flood of them is what rate limiting and draining protect against. */
const NOT_AUDITED: ReadonlySet<string> = new Set<ApiErrorCode>(['RATE_LIMITED', 'SHUTTING_DOWN']);

/** Longest message kept in a refusal record; the client may have put anything in it. */
const MAX_AUDITED_MESSAGE = 512;

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof StoreError)
    return new ApiError('STORE_UNAVAILABLE', 'the store could not complete the request');
  const e = err as Partial<FastifyError>;
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status === 413) return new ApiError('BODY_TOO_LARGE', `request body: ${e.message ?? 'too large'}`);
  if (status === 415) {
    return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'request body: expected Content-Type application/json');
  }
  if (status >= 400 && status < 500) {
    if (e.validationContext) return new ApiError('INVALID_BODY', e.message ?? 'invalid request');
    return new ApiError('INVALID_JSON', `request body: ${e.message ?? 'malformed'}`);
  }
  return new ApiError('INTERNAL', 'internal error; the request changed nothing');
}

function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? request.url.split('?')[0]!.slice(0, 256);
}

export function registerErrorHandler(app: FastifyInstance, audit: AuditLog): void {
  app.setErrorHandler(async (err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(err);
    if (apiError.code === 'INTERNAL' || apiError.code === 'STORE_UNAVAILABLE') {
      request.log.error({ err }, 'request failed');
    }
    if (apiError.statusCode < 500 && !NOT_AUDITED.has(apiError.code)) {
      const caller = request.caller;
      try {
        await audit.append({
          type: 'refusal',
          tenantId: caller?.tenantId,
          actor: caller?.keyId,
          data: {
            method: request.method,
            route: routeOf(request),
            status: apiError.statusCode,
            code: apiError.code,
            message: apiError.message.slice(0, MAX_AUDITED_MESSAGE),
          },
        });
      } catch (auditErr) {
        // fail closed: a refusal that cannot be recorded is answered as a store failure
        request.log.error({ err: auditErr }, 'refusal could not be audited');
        const unavailable = new ApiError('STORE_UNAVAILABLE', 'the store could not record the refusal');
        return reply.code(unavailable.statusCode).send(errorBody(unavailable.code, unavailable.message));
      }
    }
    if (apiError.code === 'RATE_LIMITED' && (err as { headers?: Record<string, string> }).headers) {
      reply.headers((err as { headers: Record<string, string> }).headers);
    }
    return reply.code(apiError.statusCode).send(errorBody(apiError.code, apiError.message, apiError.details));
  });

  app.setNotFoundHandler(async (request) => {
    throw new ApiError('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]!.slice(0, 256)}`);
  });
}

export { API_ERRORS };
