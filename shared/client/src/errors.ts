/**
 * The client's one error vocabulary. Every failure is a GovError carrying the server's `code`, the HTTP
 * `status` (0 when no response came) and the server's `details`; subclasses let callers catch by kind.
 */

export class GovError extends Error {
  readonly code: string;
  /** HTTP status; 0 when the request never got a response (network, time-out, abort). */
  readonly status: number;
  readonly details: unknown;

  constructor(code: string, message: string, status: number, details?: unknown) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

/** 401: no key, an unknown key or a revoked key; status 0: a key that cannot be a Pentagate key, unsent. */
export class AuthenticationError extends GovError {}
/**
 * 403 SCOPE_FORBIDDEN: the key's scope does not open the route; AGENT_FORBIDDEN: the key is bound to another
 * agent than `context.agentId` (or the proposal's); or a 403 without the server's JSON. Not 403
 * OPEN_PROPOSALS_LIMIT, which is back-pressure (QuotaExceededError).
 */
export class PermissionDeniedError extends GovError {}
/** 403 EXECUTION_DENIED: denied, vetoed, expired, or still waiting for approval or its hold. */
export class ExecutionDeniedError extends GovError {}
/** 409 DOUBLE_EXECUTION: the proposal was already executed (it runs exactly once). */
export class DoubleExecutionError extends GovError {}
/** 409 other than DOUBLE_EXECUTION: idempotency key reused for another action, approval not pending. */
export class ConflictError extends GovError {}
/** 404: no such proposal, policy or route in the caller's tenant. */
export class NotFoundError extends GovError {}
/** 400 / 413 / 415: the request did not pass validation; `details.issues` lists the problems when given. */
export class ValidationFailedError extends GovError {}
/**
 * Back-pressure: try again later. 429: too many requests; `retryAfterMs` is the server's hint when it sent
 * one. Also the class of QuotaExceededError, so one `instanceof RateLimitedError` catches every "later".
 */
export class RateLimitedError extends GovError {
  readonly retryAfterMs: number | undefined;

  constructor(
    code: string,
    message: string,
    status: number,
    details: unknown,
    retryAfterMs: number | undefined,
  ) {
    super(code, message, status, details);
    this.retryAfterMs = retryAfterMs;
  }
}
/**
 * 403 OPEN_PROPOSALS_LIMIT: the key already has as many proposals waiting for an operator as the server allows
 * (`openProposals` of `limit`, from the error's details). Nothing was decided, reserved or queued; propose again
 * once an operator has decided some (no Retry-After: when depends on the operator). A quota, not a permission:
 * the same call succeeds later, so it is a RateLimitedError (back-pressure), not a PermissionDeniedError — the
 * specification (§7) names GovError as the base of every client error and leaves the conditions open.
 */
export class QuotaExceededError extends RateLimitedError {
  readonly openProposals: number | undefined;
  readonly limit: number | undefined;

  constructor(code: string, message: string, status: number, details: unknown) {
    super(code, message, status, details, undefined);
    const d = (typeof details === 'object' && details !== null ? details : {}) as Record<string, unknown>;
    this.openProposals = typeof d.openProposals === 'number' ? d.openProposals : undefined;
    this.limit = typeof d.limit === 'number' ? d.limit : undefined;
  }
}
/** 5xx: the server or its store failed; the request changed nothing (server contract). */
export class ServerError extends GovError {}
/** No response within `timeoutMs`. Whether the server acted is unknown. */
export class TimeoutError extends GovError {}
/** The caller's AbortSignal fired. Whether the server acted is unknown. */
export class AbortedError extends GovError {}
/** The request could not be sent or the connection broke. Whether the server acted is unknown. */
export class NetworkError extends GovError {}
/** The server answered with something that is not the documented JSON. */
export class BadResponseError extends GovError {}

/** Maps an error response to its class. */
export function errorForResponse(
  status: number,
  code: string,
  message: string,
  details: unknown,
  retryAfterMs: number | undefined,
): GovError {
  if (status === 401) return new AuthenticationError(code, message, status, details);
  if (status === 429) return new RateLimitedError(code, message, status, details, retryAfterMs);
  if (code === 'EXECUTION_DENIED') return new ExecutionDeniedError(code, message, status, details);
  if (code === 'DOUBLE_EXECUTION') return new DoubleExecutionError(code, message, status, details);
  if (status === 403 && code === 'OPEN_PROPOSALS_LIMIT')
    return new QuotaExceededError(code, message, status, details);
  if (status === 403) return new PermissionDeniedError(code, message, status, details);
  if (status === 404) return new NotFoundError(code, message, status, details);
  if (status === 409) return new ConflictError(code, message, status, details);
  if (status === 400 || status === 413 || status === 415)
    return new ValidationFailedError(code, message, status, details);
  if (status >= 500) return new ServerError(code, message, status, details);
  return new GovError(code, message, status, details);
}
