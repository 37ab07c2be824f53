/**
 * The edge's HTTP(S) client for the cloud's fleet routes, authenticated with the robot's edge key. The edge
 * always opens the request (robots sit behind NAT; the cloud never dials a robot). Every request has a
 * timeout, so a cloud that hangs looks like a cloud that is down.
 */
import {
  type ConsentRelay,
  describeFetchFailure,
  ConsentRelaySchema,
  type ConsentRequest,
  type EdgeAuditRecord,
  type EdgeChainAck,
  EdgeChainAckSchema,
  PentagateError,
  readJson,
  NO_REDIRECT,
  redirectRefusal,
  type TrustedKey,
  OperatorKeysSchema,
  ConsentRequestPostedSchema,
  ConsentRequestClosedSchema,
  validate,
} from '@pentagate/protocol';

/** How each answer is read: parsed JSON checked against its schema, or refused. */
const ACK = (v: unknown) => validate(EdgeChainAckSchema, v, 'cloud acknowledgement');
const RELAY = (v: unknown) => validate(ConsentRelaySchema, v, 'consent relay');
const KEYS = (v: unknown) => validate(OperatorKeysSchema, v, 'operator keys');
const POSTED = (v: unknown) => validate(ConsentRequestPostedSchema, v, 'consent request answer');
const CLOSED = (v: unknown) => validate(ConsentRequestClosedSchema, v, 'consent request close answer');
const CLOSED_ALL = (v: unknown) => {
  const closed = (v as { closed?: unknown } | null)?.closed;
  if (typeof closed !== 'number' || !Number.isInteger(closed) || closed < 0) {
    throw new UplinkError('CLOUD_REFUSED', 'consent requests close answer: expected { closed: integer }');
  }
  return { closed };
};

export type UplinkErrorCode = 'CLOUD_UNREACHABLE' | 'CLOUD_REFUSED' | 'CLOUD_DIVERGED' | 'CLOUD_AHEAD';

export class UplinkError extends PentagateError {
  declare readonly code: UplinkErrorCode;
  /** HTTP status of a refusal. */
  readonly status: number | undefined;

  constructor(code: UplinkErrorCode, message: string, status?: number, details?: unknown) {
    super(code, message, details);
    this.status = status;
  }
}

export interface CloudLinkOptions {
  /** Base URL of the cloud, e.g. https://cloud.example or http://127.0.0.1:8080 (loopback). */
  url: string;
  /** The robot's edge API key (scope `edge`, from `pentagate cloud robot add`). */
  key: string;
  robotId: string;
  /** Longest wait for one response (default 10 s). */
  requestTimeoutMs?: number;
}

/** A refusal that says where the cloud's chain stands: a gap (resume there) or a broken chain. */
export interface ChainRefusal {
  code: string;
  message: string;
  acknowledged?: number;
}

export class CloudLink {
  readonly robotId: string;
  readonly #base: string;
  readonly #authorization: string;
  readonly #timeoutMs: number;

  constructor(options: CloudLinkOptions) {
    if (!/^https?:\/\/[^/]+/.test(options.url)) {
      throw new UplinkError(
        'CLOUD_REFUSED',
        `cloud URL: expected http(s)://HOST[:PORT], got ${JSON.stringify(options.url)}`,
      );
    }
    this.#base = options.url.replace(/\/+$/, '');
    this.#authorization = `Bearer ${options.key}`;
    this.robotId = options.robotId;
    this.#timeoutMs = options.requestTimeoutMs ?? 10_000;
  }

  get url(): string {
    return this.#base;
  }

  /** Where the cloud's copy of this robot's chain ends. */
  async ack(signal?: AbortSignal): Promise<EdgeChainAck> {
    return this.#acknowledged(await this.#request('GET', this.#robot('ack'), undefined, ACK, signal));
  }

  /** Ships one batch; resolves with the cloud's acknowledgement. */
  async ship(records: readonly EdgeAuditRecord[], signal?: AbortSignal): Promise<EdgeChainAck> {
    return this.#acknowledged(await this.#request('POST', this.#robot('records'), { records }, ACK, signal));
  }

  /** Parks a move waiting for consent in the cloud's approvals queue (idempotent). */
  async postConsentRequest(request: ConsentRequest, signal?: AbortSignal): Promise<void> {
    await this.#request('POST', this.#robot('consent-requests'), request, POSTED, signal);
  }

  /** Takes a posted move out of the cloud's approvals queue: this edge no longer waits for its consent. */
  async closeConsentRequest(intentDigest: string, signal?: AbortSignal): Promise<void> {
    await this.#request('DELETE', this.#robot(`consent-requests/${intentDigest}`), undefined, CLOSED, signal);
  }

  /** Closes every move of this robot still waiting in the cloud's queue (a starting edge waits for none). */
  async closeAllConsentRequests(signal?: AbortSignal): Promise<number> {
    return (await this.#request('DELETE', this.#robot('consent-requests'), undefined, CLOSED_ALL, signal))
      .closed;
  }

  /** The operator tokens granted since the last call; the cloud holds the request up to `waitMs`. */
  async takeConsents(waitMs: number, signal?: AbortSignal): Promise<unknown[]> {
    const relay: ConsentRelay = await this.#request(
      'GET',
      this.#robot(`consents?waitMs=${Math.round(waitMs)}`),
      undefined,
      RELAY,
      signal,
      waitMs,
    );
    return relay.tokens;
  }

  /** The operator keys enrolled in the robot's tenant (trust entries, role operator). */
  async operatorKeys(signal?: AbortSignal): Promise<TrustedKey[]> {
    return (await this.#request('GET', this.#robot('operator-keys'), undefined, KEYS, signal)).keys;
  }

  #robot(path: string): string {
    return `/api/v1/fleet/robots/${this.robotId}/${path}`;
  }

  #acknowledged(ack: EdgeChainAck): EdgeChainAck {
    if (ack.robotId !== this.robotId) {
      throw new UplinkError(
        'CLOUD_REFUSED',
        `cloud acknowledged robot ${ack.robotId}, expected ${this.robotId}`,
      );
    }
    return ack;
  }

  async #request<T>(
    method: string,
    path: string,
    body: unknown,
    answer: (value: unknown) => T,
    signal?: AbortSignal,
    heldMs = 0,
  ): Promise<T> {
    const timeout = AbortSignal.timeout(this.#timeoutMs + heldMs);
    let res: Response;
    try {
      res = await fetch(`${this.#base}${path}`, {
        method,
        headers: {
          authorization: this.#authorization,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        // not followed: another address would get the records and answer for the cloud (operator keys the gate
        // trusts for consent, consent tokens, acknowledgements after which the outbox counts records as shipped)
        ...NO_REDIRECT,
      });
    } catch (err) {
      throw new UplinkError(
        'CLOUD_UNREACHABLE',
        `cannot reach the cloud: ${method} ${this.#base}${path}: ${describeFetchFailure(err)}`,
      );
    }
    const text = await res.text().catch(() => '');
    const redirect = redirectRefusal(res);
    if (redirect !== undefined) {
      throw new UplinkError('CLOUD_REFUSED', `${method} ${path}: ${redirect}`, res.status);
    }
    if (res.status !== 200) {
      let error: { code?: string; message?: string; details?: { acknowledged?: number } } = {};
      try {
        error = (JSON.parse(text) as { error?: typeof error }).error ?? {};
      } catch {
        // not our cloud's error body (a proxy's page): the status says enough
      }
      const refusal: ChainRefusal = {
        code: error.code ?? `HTTP_${res.status}`,
        message: error.message ?? text.slice(0, 200),
        ...(typeof error.details?.acknowledged === 'number'
          ? { acknowledged: error.details.acknowledged }
          : {}),
      };
      const code = res.status >= 500 || res.status === 429 ? 'CLOUD_UNREACHABLE' : 'CLOUD_REFUSED';
      throw new UplinkError(
        code,
        `${method} ${path}: ${res.status} ${refusal.code}: ${refusal.message}`,
        res.status,
        refusal,
      );
    }
    return answer(readJson(text, { what: `answer to ${method} ${path}` }));
  }
}
