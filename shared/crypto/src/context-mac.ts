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
import { canonicalBytes, canonicalize, utf8Bytes } from '@pentagate/protocol';
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

/**
 * The same MAC over `prefix || body` given as text (UTF-8 of both): lets an implementation that hashes strings
 * natively (node:crypto's `update(text, 'utf8')`) skip encoding and joining the bytes in JavaScript, which is a
 * visible share of signing a 4 KiB motor command. Optional; the bytes hashed are the same.
 */
export type HmacSha256Text = (key: Uint8Array, prefix: string, body: string) => Uint8Array;

/** The portable implementation (@noble/hashes), for code that must also run in a browser. */
export const nobleHmacSha256: HmacSha256 = (key, message) => hmac(sha256, key, message);

/** A MAC function bound to one context string (its bytes are encoded once) and one HMAC implementation. */
export function contextMac(
  context: string,
  what: string,
  hmacSha256: HmacSha256 = nobleHmacSha256,
  hmacSha256Text?: HmacSha256Text,
): (key: Uint8Array, value: object) => Uint8Array {
  const contextBytes = utf8Bytes(context);
  if (hmacSha256Text) {
    return (key, value) => {
      assertBytes(key, what);
      return hmacSha256Text(key, context, canonicalize(withoutMac(value)));
    };
  }
  return (key, value) => {
    assertBytes(key, what);
    const body = canonicalBytes(withoutMac(value));
    const message = new Uint8Array(contextBytes.length + body.length);
    message.set(contextBytes);
    message.set(body, contextBytes.length);
    return hmacSha256(key, message);
  };
}
