/**
 * Strict reading of JSON from outside (files, MQTT payloads, serial lines): a size limit, a clear error
 * with the position, and refusal of integer literals beyond 2^53 - 1, which JSON.parse would silently
 * round (I-JSON, RFC 7493 §2.2) — a rounded seq or amount must never be signed.
 */
import { InvalidInputError } from './errors.js';

export const DEFAULT_MAX_JSON_BYTES = 1024 * 1024;

/** Finds the first integer literal outside strings whose magnitude exceeds Number.MAX_SAFE_INTEGER. */
function findUnsafeInteger(text: string): string | undefined {
  const len = text.length;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // skip a string, honouring backslash escapes
      for (i++; i < len; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      continue;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i;
      if (text.charCodeAt(j) === 0x2d) j++;
      const digitsStart = j;
      while (j < len && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x39) j++;
      const next = text[j];
      const isInteger = next !== '.' && next !== 'e' && next !== 'E';
      if (isInteger && j - digitsStart >= 16 && !Number.isSafeInteger(Number(text.slice(i, j)))) {
        return text.slice(i, j);
      }
      while (j < len && /[0-9.eE+-]/.test(text[j]!)) j++;
      i = j - 1;
    }
  }
  return undefined;
}

export interface ReadJsonOptions {
  /** What is being read, for the error message: "motor command", "trust file trust.json". */
  what: string;
  maxBytes?: number;
}

/** Parses JSON text strictly; throws InvalidInputError that names what was expected and what came. */
export function readJson(input: string | Uint8Array, options: ReadJsonOptions): unknown {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_JSON_BYTES;
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  if (size > maxBytes) {
    throw new InvalidInputError(`${options.what}: expected at most ${maxBytes} bytes of JSON, got ${size}`);
  }
  let text: string;
  try {
    text = typeof input === 'string' ? input : new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    throw new InvalidInputError(`${options.what}: expected UTF-8 JSON, got bytes that are not valid UTF-8`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InvalidInputError(
      `${options.what}: expected JSON, got malformed text (${(err as Error).message})`,
    );
  }
  const unsafe = findUnsafeInteger(text);
  if (unsafe !== undefined) {
    throw new InvalidInputError(
      `${options.what}: expected integers within ±(2^53 - 1), got ${unsafe}, which would lose precision`,
    );
  }
  return value;
}
