/** Stand-in for node:crypto in the page: random bytes from WebCrypto; key files and KeyObjects do not exist here. */
import { BrowserBuffer, type Bytes } from './buffer.js';
import { unavailable } from './node-unavailable.js';

export function randomBytes(n: number): Bytes {
  const out = BrowserBuffer.alloc(n);
  crypto.getRandomValues(out);
  return out;
}

/** Fills `bytes` in place (ids draw from a pool refilled this way); WebCrypto's limit is 65,536 bytes a call. */
export function randomFillSync(bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  crypto.getRandomValues(bytes);
  return bytes;
}

export const createPrivateKey = unavailable;
export const createPublicKey = unavailable;
export const sign = unavailable;
export const verify = unavailable;
export const createHmac = unavailable;
export const createHash = unavailable;
export const timingSafeEqual = unavailable;
export type KeyObject = never;
