/**
 * GovClient: an agent's handle on the Pentagate kernel. `authorize` an action, `execute` what was allowed
 * (exactly once), `replay` a decision, read the tenant's audit events. Retry policy: `execute` is never
 * retried (a lost response must not become a second execution — the server refuses one anyway with 409);
 * `authorize` is retried on network errors, time-outs and 503 only when the action carries an
 * idempotencyKey (the server then returns the first decision); reads are retried likewise.
 */
import {
  argumentError,
  baseUrlOption,
  describe,
  instantArgument,
  isRecord,
  optionsError,
  proposalIdArgument,
  retriesOption,
  timerOption,
} from './arguments.js';
import { type FetchLike, type Shape, Transport } from './transport.js';
import {
  AUTHORIZATION_STATUSES,
  type AuditEntry,
  type AuditEventsPage,
  type AuditEventsQuery,
  type AuthorizationDecision,
  type ExecutionResult,
  type ProposedAction,
  type ReplayResult,
} from './types.js';

export interface GovClientOptions {
  /** The cloud's base URL, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /**
   * A tenant API key (`pgk_…`); scope `agent` for authorize/execute. Any string is accepted here: one that
   * cannot be a Pentagate key fails each call with AuthenticationError, unsent (see Transport).
   */
  apiKey: string;
  /** Per-attempt time-out (default 10 000 ms). */
  timeoutMs?: number;
  /** A fetch implementation (default: the global one). */
  fetch?: FetchLike;
  /** Extra attempts for repeatable calls (default 2). */
  maxRetries?: number;
  /** First retry back-off, doubled per attempt (default 200 ms). */
  retryDelayMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** The object form of `execute`'s input; `execute` also takes the proposalId string itself (§2.1). */
export interface ExecuteRequest {
  proposalId: string;
}

// Each result's required fields (types.ts); Shape<T> makes the compiler list every one.
const DECISION: Shape<AuthorizationDecision> = {
  proposalId: 'string',
  status: AUTHORIZATION_STATUSES,
  violations: 'array',
  expiresAt: 'string',
  policyDigest: 'string',
};
const EXECUTION: Shape<ExecutionResult> = {
  executionId: 'string',
  proposalId: 'string',
  executed: 'boolean',
  executedAt: 'string',
  auditIndex: 'number',
};
const REPLAY: Shape<ReplayResult> = {
  proposalId: 'string',
  original: 'object',
  replayed: 'object',
  identical: 'boolean',
  differences: 'array',
};
const AUDIT_PAGE: Shape<AuditEventsPage> = { events: 'array' };

export class GovClient {
  readonly #transport: Transport;

  constructor(options: GovClientOptions) {
    if (!isRecord(options))
      throw optionsError(`options: expected an object with baseUrl and apiKey, got ${describe(options)}`);
    const baseUrl = baseUrlOption(options.baseUrl);
    if (typeof options.apiKey !== 'string')
      throw optionsError(`apiKey: expected a string, got ${typeof options.apiKey}`);
    timerOption('timeoutMs', options.timeoutMs, 1);
    timerOption('retryDelayMs', options.retryDelayMs, 0);
    retriesOption(options.maxRetries);
    if (options.fetch !== undefined && typeof options.fetch !== 'function')
      throw optionsError(`fetch: expected a function, got ${describe(options.fetch)}`);
    const fetchImpl = options.fetch ?? (globalThis.fetch?.bind(globalThis) as FetchLike | undefined);
    if (!fetchImpl) throw optionsError('fetch: none given and no global fetch');
    this.#transport = new Transport({
      baseUrl,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? 10_000,
      fetch: fetchImpl,
      maxRetries: options.maxRetries ?? 2,
      retryDelayMs: options.retryDelayMs ?? 200,
    });
  }

  /** Proposes an action. Every status is a result (a DENY is not thrown); errors are for failed calls. */
  async authorize(action: ProposedAction, options: CallOptions = {}): Promise<AuthorizationDecision> {
    if (!isRecord(action)) throw argumentError(`action: expected an object, got ${describe(action)}`);
    return this.#transport.request({
      method: 'POST',
      path: '/api/v1/kernel/authorize',
      body: action,
      signal: options.signal,
      repeatable: action.idempotencyKey !== undefined,
      result: DECISION,
    });
  }

  /**
   * Executes an allowed (or approved, or elapsed-hold) proposal, exactly once. Throws ExecutionDeniedError
   * when it may not run and DoubleExecutionError when it already ran. Never retried. Specification §2.1:
   * "execute input: proposalId (string)" — `execute(decision.proposalId)`; `{ proposalId }` works too.
   */
  async execute(request: string | ExecuteRequest, options: CallOptions = {}): Promise<ExecutionResult> {
    const proposalId = proposalIdArgument(isRecord(request) ? request.proposalId : request);
    return this.#transport.request({
      method: 'POST',
      path: '/api/v1/kernel/execute',
      body: { proposalId },
      signal: options.signal,
      repeatable: false,
      result: EXECUTION,
    });
  }

  /** Re-decides a proposal from its stored input; `policy` names another stored policy digest (what-if). */
  async replay(proposalId: string, options: CallOptions & { policy?: string } = {}): Promise<ReplayResult> {
    proposalIdArgument(proposalId);
    if (proposalId === '.' || proposalId === '..') {
      // no proposal has such an id, and no encoding sends it: the URL parser resolves `.`, `..` and their
      // percent-encoded forms away (`/replay/..` is `/api/v1/kernel/`), which another route could answer
      throw argumentError(
        `proposalId: expected a proposal id, got ${JSON.stringify(proposalId)}, a dot segment no URL can carry`,
      );
    }
    return this.#transport.request({
      method: 'GET',
      path: `/api/v1/kernel/replay/${encodeURIComponent(proposalId)}`,
      query: { policy: options.policy },
      signal: options.signal,
      repeatable: true,
      result: REPLAY,
    });
  }

  /** One page of the tenant's audit events; pass `nextCursor` back as `cursor` for the next. */
  async getAuditEvents(query: AuditEventsQuery = {}, options: CallOptions = {}): Promise<AuditEventsPage> {
    if (!isRecord(query)) throw argumentError(`query: expected an object, got ${describe(query)}`);
    return this.#transport.request({
      method: 'GET',
      path: '/api/v1/kernel/audit/events',
      query: {
        type: query.type,
        agentId: query.agentId,
        proposalId: query.proposalId,
        from: instantArgument('from', query.from),
        to: instantArgument('to', query.to),
        cursor: query.cursor,
        limit: query.limit === undefined ? undefined : String(query.limit),
      },
      signal: options.signal,
      repeatable: true,
      result: AUDIT_PAGE,
    });
  }

  /** Every matching event, page after page (`for await (const e of client.auditEvents({ type: 'execution' }))`). */
  async *auditEvents(
    query: AuditEventsQuery = {},
    options: CallOptions = {},
  ): AsyncGenerator<AuditEntry, void, undefined> {
    let cursor = query.cursor;
    for (;;) {
      const page = await this.getAuditEvents(
        { ...query, ...(cursor !== undefined ? { cursor } : {}) },
        options,
      );
      yield* page.events;
      if (page.nextCursor === undefined) return;
      cursor = page.nextCursor;
    }
  }
}
