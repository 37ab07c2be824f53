/**
 * The console's calls to the cloud API, same origin, with the API key from sessionStorage in the
 * Authorization header (RFC 6750 §2.1): never in a URL, so it reaches no access log, history or referrer.
 */
const KEY_ITEM = 'pentagate.apiKey';

export const session = {
  key: (): string | null => sessionStorage.getItem(KEY_ITEM),
  signIn: (key: string): void => sessionStorage.setItem(KEY_ITEM, key),
  signOut: (): void => sessionStorage.clear(),
};

export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function authHeaders(): Record<string, string> {
  const key = session.key();
  return key ? { authorization: `Bearer ${key}` } : {};
}

/** The status of an ApiCallError when no answer came (the cloud or the network is down). */
export const NO_ANSWER = 0;
/**
 * How long a call waits for its answer: a request lost on the way would otherwise leave its card at "sending…"
 * for as long as the browser's own TCP timeout, minutes. A consent POST given up on may still have arrived; its
 * retry sends the same token (robot-consent-card.ts), so nothing is signed twice.
 */
export const ANSWER_TIMEOUT_MS = 15_000;

/**
 * One API call; a refusal throws ApiCallError with the cloud's error code and message, and no answer at all
 * throws one with status NO_ANSWER that says so (fetch's own "Failed to fetch" tells an operator nothing).
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(path, {
      method,
      headers: { ...authHeaders(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      cache: 'no-store',
      signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    });
    text = await res.text();
  } catch (err) {
    const why =
      (err as Error).name === 'TimeoutError'
        ? `no answer within ${ANSWER_TIMEOUT_MS / 1000} s`
        : (err as Error).message;
    throw new ApiCallError(
      NO_ANSWER,
      'NO_ANSWER',
      `${method} ${path}: the cloud did not answer (${why}); check the network and try again`,
    );
  }
  if (!res.ok) {
    let code = `HTTP_${res.status}`;
    let message = text;
    try {
      const parsed = JSON.parse(text) as { error?: { code?: string; message?: string } };
      code = parsed.error?.code ?? code;
      message = parsed.error?.message ?? message;
    } catch {
      // not JSON: keep the text
    }
    throw new ApiCallError(res.status, code, `${method} ${path}: ${res.status} ${code}: ${message}`);
  }
  const type = res.headers.get('content-type') ?? '';
  return (type.includes('application/json') ? JSON.parse(text) : text) as T;
}
