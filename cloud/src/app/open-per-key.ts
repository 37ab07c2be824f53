/**
 * Requests an API key holds open at once, for routes that keep a request open (the live stream, the consent
 * long poll): each holds a socket and a file descriptor, and sometimes a timer re-reading the store, for as
 * long as it lasts, which the request rate limit (requests per window) does not bound.
 */
export class OpenPerKey {
  readonly #open = new Map<string, number>();

  of(keyId: string): number {
    return this.#open.get(keyId) ?? 0;
  }

  opened(keyId: string): void {
    this.#open.set(keyId, this.of(keyId) + 1);
  }

  closed(keyId: string): void {
    const left = this.of(keyId) - 1;
    if (left > 0) this.#open.set(keyId, left);
    else this.#open.delete(keyId);
  }
}
