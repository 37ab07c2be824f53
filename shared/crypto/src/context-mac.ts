/**
 * One MAC construction for every object this project authenticates with a shared key:
 *   tag = HMAC-SHA256(key, context || JCS(object without `mac`))
 * HMAC (RFC 2104) over SHA-256: @noble/hashes by default (this package also runs in browsers); code that runs
 * only on Node (the edge) passes node:crypto's HMAC instead, which is several times faster (a differential
 * test keeps the two equal). The context string
 * separates the uses of a key (a sensor key can never produce a valid motor command, nor the reverse);
 * JCS (RFC 8785) makes the tag independent of member order and spacing. The tag covers every member except
 * `mac` itself, including any member a future version adds.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { canonicalBytes, utf8Bytes } from '@pentagate/protocol';
import { assertBytes } from './errors.js';

/** HMAC-SHA256 output length. */
export const HMAC_SHA256_BYTES = 32;

/** The object without its `mac` member. */
export function withoutMac<T extends object>(value: T): Omit<T, 'mac'> {
  const { mac: _mac, ...rest } = value as T & { mac?: unknown };
  return rest;
}

/** HMAC-SHA256 of `message` under `key`, 32 bytes. */
export type HmacSha256 = (key: Uint8Array, message: Uint8Array) => Uint8Array;

/** The portable implementation (@noble/hashes), for code that must also run in a browser. */
export const nobleHmacSha256: HmacSha256 = (key, message) => hmac(sha256, key, message);

/** A MAC function bound to one context string (its bytes are encoded once) and one HMAC implementation. */
export function contextMac(
  context: string,
  what: string,
  hmacSha256: HmacSha256 = nobleHmacSha256,
): (key: Uint8Array, value: object) => Uint8Array {
  const contextBytes = utf8Bytes(context);
  return (key, value) => {
    assertBytes(key, what);
    const body = canonicalBytes(withoutMac(value));
    const message = new Uint8Array(contextBytes.length + body.length);
    message.set(contextBytes);
    message.set(body, contextBytes.length);
    return hmacSha256(key, message);
  };
}
