/**
 * The part of Node's Buffer that the shared packages use (encoding.ts, ed25519.ts), for the page: hex, base64
 * and base64url (RFC 4648 §4, §5) and UTF-8. Decoding is lenient like Node's; the shared decoders re-encode
 * and compare, so non-canonical input is still refused there.
 */
type Encoding = 'hex' | 'base64' | 'base64url' | 'utf8' | 'utf-8';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function encodeBase64(bytes: Uint8Array, url: boolean): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]!;
    out += i + 1 < bytes.length ? B64[(n >> 6) & 63]! : '=';
    out += i + 2 < bytes.length ? B64[n & 63]! : '=';
  }
  return url ? out.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_') : out;
}

function decodeBase64(text: string): Uint8Array {
  const clean = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .replace(/[^A-Za-z0-9+/]/g, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let j = 0;
  for (const c of clean) {
    value = (value << 6) | B64.indexOf(c);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (value >> bits) & 0xff;
    }
  }
  return out.subarray(0, j);
}

/** Bytes with Node Buffer's `toString(encoding)` and `equals`. */
export class Bytes extends Uint8Array {
  equals(other: Uint8Array): boolean {
    return this.length === other.length && this.every((b, i) => b === other[i]);
  }

  override toString(encoding: Encoding = 'utf8'): string {
    if (encoding === 'hex') return Array.from(this, (b) => b.toString(16).padStart(2, '0')).join('');
    if (encoding === 'base64' || encoding === 'base64url')
      return encodeBase64(this, encoding === 'base64url');
    return new TextDecoder().decode(this);
  }
}

function copyOf(bytes: Uint8Array): Bytes {
  const out = new Bytes(bytes.length);
  out.set(bytes);
  return out;
}

/** The static side of Node's Buffer, as far as the shared packages use it. */
export const BrowserBuffer = {
  alloc: (size: number): Bytes => new Bytes(size),

  from(
    source: string | ArrayBufferLike | ArrayLike<number>,
    encodingOrOffset?: Encoding | number,
    length?: number,
  ): Bytes {
    if (typeof source === 'string') {
      const encoding = (encodingOrOffset as Encoding | undefined) ?? 'utf8';
      if (encoding === 'hex')
        return copyOf(
          new Uint8Array((source.match(/[0-9a-fA-F]{2}/g) ?? []).map((p) => Number.parseInt(p, 16))),
        );
      if (encoding === 'base64' || encoding === 'base64url') return copyOf(decodeBase64(source));
      return copyOf(new TextEncoder().encode(source));
    }
    if (
      source instanceof ArrayBuffer ||
      (typeof SharedArrayBuffer !== 'undefined' && source instanceof SharedArrayBuffer)
    ) {
      const offset = (encodingOrOffset as number | undefined) ?? 0;
      return copyOf(new Uint8Array(source, offset, length ?? source.byteLength - offset));
    }
    return copyOf(Uint8Array.from(source as ArrayLike<number>));
  },

  concat(parts: readonly Uint8Array[]): Bytes {
    const out = new Bytes(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  },

  byteLength: (text: string): number => new TextEncoder().encode(text).length,
};
