/** Stand-in for node:crypto in the page: random bytes from WebCrypto; key files and KeyObjects do not exist here. */
import { BrowserBuffer, type Bytes } from './buffer.js';

export function randomBytes(n: number): Bytes {
  const out = BrowserBuffer.alloc(n);
  crypto.getRandomValues(out);
  return out;
}

function unavailable(): never {
  throw new Error('node:crypto key objects are not available in the browser');
}
export const createPrivateKey = unavailable;
export const createPublicKey = unavailable;
export const sign = unavailable;
export const verify = unavailable;
export const createHmac = unavailable;
export const timingSafeEqual = unavailable;
export type KeyObject = never;
