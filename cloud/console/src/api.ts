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
 * One API call; a refusal throws ApiCallError with the cloud's error code and message, and no answer at all
 * throws one with status NO_ANSWER that says so (fetch's own "Failed to fetch" tells an operator nothing).
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: { ...authHeaders(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      cache: 'no-store',
    });
  } catch (err) {
    throw new ApiCallError(
      NO_ANSWER,
      'NO_ANSWER',
      `${method} ${path}: the cloud did not answer (${(err as Error).message}); check the network and try again`,
    );
  }
  const text = await res.text();
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
