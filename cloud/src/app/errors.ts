/**
 * The cloud's one error vocabulary (the fastify `lib/errors.js` habit): every error a client can see, its
 * HTTP status and what it means. Every error response is `{ error: { code, message, details? } }`
 * (ARCHITECTURE.md §5). A client mistake always maps to a 4xx; a 5xx means the server or its store failed.
 */
import { PentagateError } from '@pentagate/protocol';

export const API_ERRORS = {
  INVALID_JSON: {
    status: 400,
    meaning:
      'the body is not strict JSON (syntax, bad UTF-8, duplicate names, lone surrogates, unsafe or non-finite numbers, nesting over 64, __proto__)',
  },
  INVALID_BODY: {
    status: 400,
    meaning: 'the body does not match the route schema; details.issues lists each problem',
  },
  INVALID_QUERY: { status: 400, meaning: 'a query parameter is missing or malformed' },
  INVALID_PARAMS: { status: 400, meaning: 'a path parameter is malformed' },
  INVALID_HEADERS: { status: 400, meaning: 'a request header is malformed' },
  INVALID_PROOF_RANGE: {
    status: 400,
    meaning: 'the requested log sizes or index are outside the current log',
  },
  UNAUTHENTICATED: { status: 401, meaning: 'no bearer API key, or one that is unknown or revoked' },
  SCOPE_FORBIDDEN: { status: 403, meaning: "the API key's scope does not open this route" },
  AGENT_FORBIDDEN: {
    status: 403,
    meaning:
      'the API key is bound to another agent: it registers and acts only as the agent_name it was issued for',
  },
  NOT_FOUND: { status: 404, meaning: 'no such route' },
  UNKNOWN_LOBE: { status: 404, meaning: "no lobe of that name is registered in the caller's tenant" },
  DECISION_NOT_FOUND: { status: 404, meaning: "no decision of that id in the caller's tenant" },
  // kernel (cloud/src/kernel): proposals, execution and approvals
  PROPOSAL_NOT_FOUND: { status: 404, meaning: "no kernel proposal of that id in the caller's tenant" },
  POLICY_NOT_FOUND: {
    status: 404,
    meaning: 'no stored policy version with that digest is visible to the tenant',
  },
  EXECUTION_DENIED: {
    status: 403,
    meaning:
      'the proposal may not execute: denied, vetoed, expired, or still waiting for approval or its hold',
  },
  DOUBLE_EXECUTION: { status: 409, meaning: 'the proposal was already executed; it runs exactly once' },
  SELF_APPROVAL_FORBIDDEN: {
    status: 403,
    meaning:
      'an approval comes from another API key than the one that made the proposal (four-eyes): a key that both proposes and approves (admin) cannot approve its own proposal',
  },
  APPROVAL_CONFLICT: {
    status: 409,
    meaning: 'the item is not pending in a way this approval action applies to, or the action digest differs',
  },
  REGISTRATION_CONFLICT: {
    status: 409,
    meaning:
      'this agent_name and agent_version are registered with another model_id, domain or capabilities; a changed agent registers a new agent_version',
  },
  APPROVAL_EXPIRED: {
    status: 409,
    meaning:
      'this tool_call.id was approved earlier and the approval has expired: the tool must not run on it; propose the call again with a new id',
  },
  OPEN_PROPOSALS_LIMIT: {
    status: 403,
    meaning:
      'the API key already has as many proposals waiting for an operator as it may (`openProposalsPerKey`); this one needs a human too, so it was refused: nothing was reserved or queued',
  },
  CALL_REPEATED: {
    status: 409,
    meaning:
      'this approved tool_call.id was sent again more often than the policy allows identical calls (metabolic.maxIdentical per repeatWindowMs): an agent sending one call over and over is looping; the tool must not run again on it',
  },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    meaning: 'the idempotencyKey was used for another action, or its first request is still being decided',
  },
  // fleet (cloud/src/fleet): robots, their shipped audit chains, consent relay
  ROBOT_NOT_FOUND: { status: 404, meaning: "no active robot of that id in the caller's tenant" },
  ROBOT_FORBIDDEN: { status: 403, meaning: 'the edge key is bound to another robot' },
  CONSENT_REQUEST_NOT_FOUND: {
    status: 404,
    meaning: "no robot consent request of that robot and intent digest in the caller's tenant",
  },
  CONSENT_REQUEST_CLOSED: {
    status: 409,
    meaning:
      'the consent request was already granted or denied, or its deadline has passed (the edge vetoed the move)',
  },
  CONSENT_TOKEN_INVALID: {
    status: 400,
    meaning: 'the consent token is not signed by an enrolled operator key, or does not bind this request',
  },
  OPERATOR_KEY_ENROLLED: {
    status: 409,
    meaning:
      "the operator already has another consent key enrolled; an operator's own API key cannot replace it (an admin retires or replaces it)",
  },
  OPERATOR_KEY_NOT_FOUND: {
    status: 404,
    meaning: 'the operator has no active consent key to retire',
  },
  OPERATOR_KEY_CONFLICT: {
    status: 409,
    meaning:
      'the consent public key is enrolled for another operator of the tenant; a key signs for one operator only',
  },
  EDGE_CHAIN_GAP: {
    status: 409,
    meaning: 'the batch starts after the last stored record; details.acknowledged says where to resume',
  },
  EDGE_CHAIN_BROKEN: {
    status: 409,
    meaning: 'a record forks or rewrites the stored chain, or names another robot; nothing was stored',
  },
  EDGE_HISTORY_INVALID: {
    status: 409,
    meaning:
      "a record's signed command breaks the robot's command history (a seq not above the last, an epoch going back, a hole inside an epoch, a seq without an epoch: the rules `verify kit` checks), or its time lies more than 1 h ahead of the server's clock; nothing was stored",
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    meaning: 'the route exists but not with this method; the Allow header lists its methods',
  },
  INVALID_URL: { status: 400, meaning: 'the path is not valid percent-encoded UTF-8' },
  URI_TOO_LONG: { status: 414, meaning: 'a path parameter is longer than the router accepts' },
  MALFORMED_REQUEST: { status: 400, meaning: 'the request is not valid HTTP/1.1; the connection is closed' },
  REQUEST_TIMEOUT: { status: 408, meaning: 'the request did not arrive in time; the connection is closed' },
  HEADERS_TOO_LARGE: {
    status: 431,
    meaning: 'the request line and headers are larger than the server accepts',
  },
  BODY_TOO_LARGE: { status: 413, meaning: 'the body is larger than the configured limit' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'the body is not application/json in UTF-8' },
  RATE_LIMITED: {
    status: 429,
    meaning: 'too many requests for this API key (or, without a valid key, this address) in the window',
  },
  INTERNAL: { status: 500, meaning: 'a fault in the server; the request changed nothing' },
  STORE_UNAVAILABLE: {
    status: 503,
    meaning: 'the store could not make the write durable, so nothing was done',
  },
  SHUTTING_DOWN: { status: 503, meaning: 'the server is draining for shutdown; retry on another replica' },
  SIGNING_KEY_RETIRED: {
    status: 503,
    meaning:
      "the server's signing key was retired (`pentagate cloud keys retire`) while it ran: it signs nothing more with it, so what needs a signature is refused until it is restarted with the key that replaced it; retry on another replica",
  },
} as const;

export type ApiErrorCode = keyof typeof API_ERRORS;

/** An error with a code from API_ERRORS; the error handler turns it into the JSON error response. */
export class ApiError extends PentagateError {
  readonly statusCode: number;
  declare readonly code: ApiErrorCode;

  constructor(code: ApiErrorCode, message: string, details?: unknown) {
    super(code, message, details);
    this.statusCode = API_ERRORS[code].status;
  }
}

/** The JSON body of every error response. */
export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

export function errorBody(code: string, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}
