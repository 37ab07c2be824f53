/**
 * The edge's HTTP(S) client for the cloud's fleet routes, authenticated with the robot's edge key. The edge
 * always opens the request (robots sit behind NAT; the cloud never dials a robot). Every request has a
 * timeout, so a cloud that hangs looks like a cloud that is down.
 */
import {
  type EdgeAuditRecord,
  type EdgeChainAck,
  EdgeChainAckSchema,
  PentagateError,
  readJson,
  validate,
} from '@pentagate/protocol';

export type UplinkErrorCode = 'CLOUD_UNREACHABLE' | 'CLOUD_REFUSED' | 'CLOUD_DIVERGED';

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
    return this.#request('GET', `/api/v1/fleet/robots/${this.robotId}/ack`, undefined, signal);
  }

  /** Ships one batch; resolves with the cloud's acknowledgement. */
  async ship(records: readonly EdgeAuditRecord[], signal?: AbortSignal): Promise<EdgeChainAck> {
    return this.#request('POST', `/api/v1/fleet/robots/${this.robotId}/records`, { records }, signal);
  }

  async #request(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<EdgeChainAck> {
    const timeout = AbortSignal.timeout(this.#timeoutMs);
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
      });
    } catch (err) {
      throw new UplinkError('CLOUD_UNREACHABLE', `${method} ${this.#base}${path}: ${(err as Error).message}`);
    }
    const text = await res.text().catch(() => '');
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
    const ack = validate(
      EdgeChainAckSchema,
      readJson(text, { what: 'cloud acknowledgement' }),
      'cloud acknowledgement',
    );
    if (ack.robotId !== this.robotId) {
      throw new UplinkError(
        'CLOUD_REFUSED',
        `cloud acknowledged robot ${ack.robotId}, expected ${this.robotId}`,
      );
    }
    return ack;
  }
}
