/**
 * Passwords already proven right, remembered so a known client reconnecting costs one HMAC instead of an
 * scrypt derivation. Only HMAC-SHA-256 tags under a per-process random key are kept (never the password,
 * never on disk); a tag says nothing without the key, which never leaves this object.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export class ProvenPasswords {
  readonly #key = randomBytes(32);
  /** One tag per user: the last password proven for it. */
  readonly #tags = new Map<string, Buffer>();

  #tag(username: string, password: string): Buffer {
    return createHmac('sha256', this.#key).update(username).update('\0').update(password).digest();
  }

  remember(username: string, password: string): void {
    this.#tags.set(username, this.#tag(username, password));
  }

  /** True when `password` is the one last proven for `username`; the comparison is constant time. */
  matches(username: string, password: string): boolean {
    const tag = this.#tags.get(username);
    return tag !== undefined && timingSafeEqual(tag, this.#tag(username, password));
  }
}
