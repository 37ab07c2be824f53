/**
 * What the bytes of one encoded run say, read through up to `MAX_LAYERS` encodings. An attacker who knows
 * the screen decodes base64 once wraps twice (base64 of base64, base64 of hex), compresses first (zlib or
 * gzip, then base64), or picks an alphabet the screen did not read (base32, RFC 4648 §6): garak's encoding
 * probes and the outside review both sent such payloads, and each passed as an opaque token. A layer is
 * peeled only when the bytes are not yet text: a compressed stream (by its header, RFC 1950 §2.2 and RFC
 * 1952 §2.3.1) or one ASCII token of an encoding's alphabet. The bounds keep the work per run small: three
 * layers, and at most `MAX_INFLATED_BYTES` out of a decompression (a zip bomb stops there).
 */
import { gunzipSync, inflateSync } from 'node:zlib';

/** Most encodings read through, the outermost included. */
export const MAX_LAYERS = 3;
/** Most bytes a decompression may produce (larger output is cut off, not read). */
export const MAX_INFLATED_BYTES = 32 * 1024;
/** Shortest token read as another layer: shorter runs say too little to be an instruction. */
const MIN_TOKEN_CHARS = 16;

function printableShare(text: string): number {
  if (text.length === 0) return 0;
  let ok = 0;
  // Code points, counted as they are read (not spread into an array to be counted).
  let total = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    // U+FFFD is what the decoder put where the bytes were not UTF-8: binary, not text
    if ((c >= 0x20 && c < 0x7f) || c === 0x0a || c === 0x0d || c === 0x09 || (c >= 0xa0 && c !== 0xfffd))
      ok++;
    total++;
  }
  return ok / total;
}

/** One decoder for every candidate: decoding without `stream` keeps no state between calls. */
const UTF8 = new TextDecoder('utf-8', { fatal: false });

/** The bytes as text when they are mostly printable and hold at least two words: a sentence, not binary. */
export function utf8Sentence(bytes: Uint8Array): string | undefined {
  const text = UTF8.decode(bytes);
  return printableShare(text) >= 0.9 && /[A-Za-z\p{L}]{2,}[^A-Za-z\p{L}]+[A-Za-z\p{L}]{2,}/u.test(text)
    ? text
    : undefined;
}

/** The text the bytes carry through up to `MAX_LAYERS - layer` more encodings (`layer`: those read so far). */
export function textOfLayers(bytes: Uint8Array, layer = 1): string | undefined {
  if (layer < MAX_LAYERS) {
    const inflated = decompressed(bytes);
    if (inflated !== undefined) return textOfLayers(inflated, layer + 1) ?? utf8Sentence(bytes);
    // One token of an encoding's alphabet is read as that encoding first: base64 text passes for a
    // sentence ("SWdub3JlIGFs…" has letters on both sides of a digit), and would hide what it encodes.
    for (const inner of tokenReadings(bytes)) {
      const found = textOfLayers(inner, layer + 1);
      if (found !== undefined) return found;
    }
  }
  return utf8Sentence(bytes);
}

/** A zlib or gzip stream's content, when the bytes start with either header and inflate. */
function decompressed(bytes: Uint8Array): Buffer | undefined {
  if (bytes.length < 3) return undefined;
  // RFC 1950 §2.2: CM 8 (deflate), CINFO ≤ 7, and CMF·256 + FLG a multiple of 31
  const zlib = (bytes[0]! & 0x0f) === 8 && bytes[0]! >> 4 <= 7 && ((bytes[0]! << 8) | bytes[1]!) % 31 === 0;
  const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b; // RFC 1952: ID1 ID2
  if (!zlib && !gzip) return undefined;
  try {
    const options = {
      maxOutputLength: MAX_INFLATED_BYTES,
      finishFlush: 2 /* Z_SYNC_FLUSH: keep a cut stream */,
    };
    return zlib ? inflateSync(bytes, options) : gunzipSync(bytes, options);
  } catch {
    // not a stream after all, or one larger than the bound: nothing to read
    return undefined;
  }
}

const HEX_TOKEN = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64_TOKEN = /^[A-Za-z0-9+/_-]+={0,2}$/;
const BASE32_TOKEN = /^(?:[A-Z2-7]+|[a-z2-7]+)=*$/;

/** The byte strings the bytes decode to when they are one ASCII token of hex, base64 or base32. */
function tokenReadings(bytes: Uint8Array): Buffer[] {
  if (bytes.length < MIN_TOKEN_CHARS) return [];
  // a token is ASCII: the first byte outside it rules the bytes out before any string is made
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! > 0x7e) return [];
  const token = Buffer.from(bytes).toString('latin1').trim();
  const out: Buffer[] = [];
  if (HEX_TOKEN.test(token)) out.push(Buffer.from(token, 'hex'));
  if (BASE64_TOKEN.test(token)) out.push(base64Bytes(token));
  if (BASE32_TOKEN.test(token)) {
    const decoded = base32Bytes(token);
    if (decoded !== undefined) out.push(decoded);
  }
  return out;
}

/** Base64 in either alphabet (RFC 4648 §4 and §5, the URL-safe one mapped back). */
export function base64Bytes(token: string): Buffer {
  return Buffer.from(token.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** Base32 (RFC 4648 §6), in upper or lower case, padding optional; undefined when a character is outside it. */
export function base32Bytes(token: string): Buffer | undefined {
  const body = token.replace(/=+$/, '').toUpperCase();
  const out = Buffer.alloc(Math.floor((body.length * 5) / 8));
  let bits = 0;
  let value = 0;
  let at = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    // A–Z are 0–25, 2–7 are 26–31
    const digit = c >= 0x41 && c <= 0x5a ? c - 0x41 : c >= 0x32 && c <= 0x37 ? c - 0x32 + 26 : -1;
    if (digit < 0) return undefined;
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (value >> bits) & 0xff;
    }
  }
  return out.subarray(0, at);
}

/** Whether a run of the base64 alphabet is also one of base32's (so base32 is worth trying on it). */
export function isBase32Token(token: string): boolean {
  return token.length >= MIN_TOKEN_CHARS && BASE32_TOKEN.test(token);
}
