/**
 * One HTTP exchange with the kernel over `fetch`: bearer key, JSON in and out (a 2xx body checked for its
 * result's required fields), a time-out per attempt, the caller's AbortSignal, error responses mapped to
 * GovError classes, and retries ONLY for requests the caller marked safe to repeat (GETs, and authorize
 * with an idempotencyKey) and only after failures that changed nothing or may have changed nothing
 * idempotently: network errors, time-outs and 503.
 */
import {
  AbortedError,
  AuthenticationError,
  BadResponseError,
  errorForResponse,
  type GovError,
  NetworkError,
  ServerError,
  TimeoutError,
  ValidationFailedError,
} from './errors.js';
import { jsonBodyProblem } from './json-body.js';
import { describe, signalArgument } from './arguments.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  fetch: FetchLike;
  /** Extra attempts for repeatable requests. */
  maxRetries: number;
  /** First back-off; doubles per attempt. */
  retryDelayMs: number;
}

/** A field's JSON type, or the closed set of its string values. */
export type FieldType = 'string' | 'number' | 'boolean' | 'object' | 'array' | readonly string[];
/** A result's required fields (those that cannot be undefined) and their JSON types. */
export type Shape<T> = { readonly [K in keyof T as undefined extends T[K] ? never : K]: FieldType };

export interface RequestSpec<T> {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** True only when repeating the request cannot do anything twice. */
  repeatable: boolean;
  /** What a 2xx body must hold; nested values are trusted. */
  result: Shape<T>;
}

function isRetryable(err: GovError): boolean {
  return (
    err instanceof NetworkError ||
    err instanceof TimeoutError ||
    (err instanceof ServerError && err.status === 503)
  );
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new AbortedError('ABORTED', 'the request was aborted by the caller', 0));
      },
      { once: true },
    );
  });
}

const API_KEY = /^pgk_[A-Za-z0-9_-]{43}$/;
/** What fetch accepts in a header value (RFC 9110 field-value): tab, visible ASCII, space, obs-text. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Why `apiKey` cannot be a Pentagate key, or undefined when it can. Such a key fails as the server would
 * fail it, with AuthenticationError ("authentication failure", specification §7), but without being
 * sent: it cannot authenticate, and one that is no header value would otherwise fail inside fetch, as a
 * NetworkError. The reason never quotes the key.
 */
function apiKeyProblem(apiKey: string): string | undefined {
  if (!HEADER_VALUE.test(apiKey))
    return 'apiKey holds a character not allowed in an HTTP header (a line break, say, read with the key from a file)';
  if (!API_KEY.test(apiKey))
    return `apiKey is not a Pentagate key: expected pgk_ followed by 43 base64url characters, got ${apiKey.length} characters`;
  return undefined;
}

function fits(v: unknown, want: FieldType): boolean {
  if (typeof want !== 'string') return want.includes(v as string);
  if (want === 'array') return Array.isArray(v);
  if (want === 'object') return typeof v === 'object' && v !== null && !Array.isArray(v);
  return typeof v === want;
}

/** Why `body` is not a JSON object with the fields of `shape`, or undefined when it is. */
function shapeProblem(body: unknown, shape: Shape<unknown>): string | undefined {
  if (!fits(body, 'object')) return `expected a JSON object, got ${describe(body)}`;
  for (const [field, want] of Object.entries(shape) as [string, FieldType][]) {
    const v = (body as Record<string, unknown>)[field];
    if (!fits(v, want))
      return `${field}: expected ${typeof want === 'string' ? want : `one of ${want.join(', ')}`}, got ${describe(v)}`;
  }
  return undefined;
}

function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/**
 * Node's fetch rejects with "fetch failed" and keeps the reason (ECONNREFUSED, ENOTFOUND, a TLS failure) in
 * `cause`; for localhost tried on IPv4 and IPv6 that is an AggregateError with only a `code`.
 */
function fetchFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const cause = (err as { cause?: { message?: unknown; code?: unknown } } | undefined)?.cause;
  const reason = typeof cause?.message === 'string' && cause.message !== '' ? cause.message : cause?.code;
  return typeof reason === 'string' && reason !== '' ? `${message}: ${reason}` : message;
}

export class Transport {
  readonly #o: TransportOptions;
  readonly #apiKeyProblem: string | undefined;

  constructor(options: TransportOptions) {
    this.#o = { ...options, baseUrl: options.baseUrl.replace(/\/+$/, '') };
    this.#apiKeyProblem = apiKeyProblem(options.apiKey);
  }

  async request<T>(spec: RequestSpec<T>): Promise<T> {
    signalArgument(spec.signal);
    if (this.#apiKeyProblem !== undefined) {
      throw new AuthenticationError(
        'UNAUTHENTICATED',
        `${spec.method} ${spec.path}: not sent: ${this.#apiKeyProblem}`,
        0,
      );
    }
    const bodyProblem = spec.body === undefined ? undefined : jsonBodyProblem(spec.body);
    if (bodyProblem !== undefined) {
      throw new ValidationFailedError(
        'INVALID_BODY',
        `${spec.method} ${spec.path}: not sent: ${bodyProblem}`,
        0,
      );
    }
    const attempts = spec.repeatable ? this.#o.maxRetries + 1 : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#once<T>(spec);
      } catch (err) {
        const govErr = err as GovError;
        if (attempt >= attempts || !isRetryable(govErr)) throw govErr;
        await sleep(this.#o.retryDelayMs * 2 ** (attempt - 1), spec.signal);
      }
    }
  }

  #url(spec: RequestSpec<unknown>): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) params.set(k, v);
    const qs = params.toString();
    return `${this.#o.baseUrl}${spec.path}${qs ? `?${qs}` : ''}`;
  }

  async #once<T>(spec: RequestSpec<T>): Promise<T> {
    if (spec.signal?.aborted) throw new AbortedError('ABORTED', 'the request was aborted by the caller', 0);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.#o.timeoutMs);
    const onAbort = () => controller.abort();
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    const what = `${spec.method} ${spec.path}`;
    try {
      let response: Response;
      let text: string;
      try {
        response = await this.#o.fetch(this.#url(spec), {
          method: spec.method,
          headers: {
            authorization: `Bearer ${this.#o.apiKey}`,
            accept: 'application/json',
            ...(spec.body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
          signal: controller.signal,
          // not followed: the body would be sent again, and the answer taken as the server's, from an address
          // the caller never configured (fetch drops Authorization across origins, but not the rest)
          redirect: 'manual',
        });
        text = await response.text();
      } catch (err) {
        if (timedOut)
          throw new TimeoutError('TIMEOUT', `${what}: no response within ${this.#o.timeoutMs} ms`, 0);
        if (spec.signal?.aborted) throw new AbortedError('ABORTED', `${what}: aborted by the caller`, 0);
        throw new NetworkError('NETWORK', `${what}: ${fetchFailure(err)}`, 0, { cause: String(err) });
      }
      // a browser's fetch shows a redirect it did not follow as an opaque answer with status 0
      if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
        const location = response.headers.get('location');
        throw new BadResponseError(
          'REDIRECT',
          `${what}: the server answered HTTP ${response.status}${location ? ` redirecting to ${JSON.stringify(location.slice(0, 200))}` : ' (a redirect)'}; GovClient follows no redirect, so set baseUrl to the address that answers`,
          response.status,
        );
      }
      let body: unknown;
      try {
        body = text.length === 0 ? undefined : JSON.parse(text);
      } catch {
        // 401 and 403 refuse the request whatever the body, and a proxy or gateway answers them with its own
        // page: the status alone picks the class (401: AuthenticationError, specification §7).
        // Other statuses keep BadResponseError: without the server's body, a 5xx does not mean "changed nothing".
        if (response.status !== 401 && response.status !== 403)
          throw new BadResponseError(
            'BAD_RESPONSE',
            `${what}: expected a JSON body, got ${JSON.stringify(text.slice(0, 120))} (HTTP ${response.status})`,
            response.status,
          );
      }
      if (!response.ok) {
        const e = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)
          ?.error;
        const code = typeof e?.code === 'string' ? e.code : `HTTP_${response.status}`;
        const message = typeof e?.message === 'string' ? e.message : `${what}: HTTP ${response.status}`;
        throw errorForResponse(
          response.status,
          code,
          message,
          e?.details,
          retryAfterMs(response.headers.get('retry-after')),
        );
      }
      // A wrong answer fails here, named, rather than as an undefined field later in the caller's code.
      const problem = shapeProblem(body, spec.result);
      if (problem !== undefined)
        throw new BadResponseError('BAD_RESPONSE', `${what}: ${problem}`, response.status);
      return body as T;
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
    }
  }
}
