/**
 * RFC 8785 JSON Canonicalization Scheme (JCS).
 *
 * Every signature and digest in Pentagate is taken over these bytes, so two implementations that
 * agree on JCS agree on what was signed. Numbers use the ECMAScript Number-to-String algorithm
 * (RFC 8785 §3.2.2.3), which is exactly `String(n)` in JavaScript for finite numbers; object
 * members are sorted by their UTF-16 code units (§3.2.3); strings use the minimal escaping of §3.2.2.2.
 */
import { PentagateError } from './errors.js';

/** A value that JCS cannot represent (RFC 8785 §3.1 requires I-JSON, RFC 7493). */
export class JcsError extends PentagateError {
  constructor(message: string, path: string) {
    super('JCS_UNREPRESENTABLE', `${message} at ${path || '/'}`, { path });
  }
}

const escapes: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** Path of the value being serialized, kept as a stack so the string is only built for an error message. */
type PathStack = (string | number)[];

const pointer = (path: PathStack): string =>
  path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

// Strings without `"`, `\`, C0 controls or surrogates need no escaping; most keys and values are like that.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the C0 controls are exactly what JCS must escape
const PLAIN_STRING = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

// RFC 8785 §3.2.2.2: only `"`, `\` and the C0 controls are escaped; everything else is literal UTF-8.
// I-JSON (RFC 7493 §2.1) forbids lone surrogates, which could not be encoded as UTF-8 anyway.
function serializeString(s: string, path: PathStack): string {
  if (PLAIN_STRING.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff))
        throw new JcsError('lone high surrogate in string', pointer(path));
      out += s[i]! + s[i + 1]!;
      i++;
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff) throw new JcsError('lone low surrogate in string', pointer(path));
    const ch = s[i]!;
    const esc = escapes[ch];
    if (esc) out += esc;
    else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

function serializeNumber(n: number, path: PathStack): string {
  if (!Number.isFinite(n)) throw new JcsError(`non-finite number ${n}`, pointer(path));
  // ECMAScript Number::toString is the RFC 8785 number form; -0 serializes as 0 (§3.2.2.3).
  return Object.is(n, -0) ? '0' : String(n);
}

// UTF-16 code unit order (RFC 8785 §3.2.3) is JavaScript's default string comparison.
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function serializeArray(arr: readonly unknown[], path: PathStack, seen: Set<object>): string {
  let out = '[';
  for (let i = 0; i < arr.length; i++) {
    path.push(i);
    out += (i === 0 ? '' : ',') + serialize(arr[i], path, seen);
    path.pop();
  }
  return `${out}]`;
}

function serializeObject(record: Record<string, unknown>, path: PathStack, seen: Set<object>): string {
  const keys = Object.keys(record).sort(byCodeUnits);
  let out = '{';
  let first = true;
  for (const k of keys) {
    const v = record[k];
    // Like JSON.stringify, an absent (undefined) member is omitted rather than refused:
    // optional TypeScript fields are undefined, and omitting them is the only sane reading.
    if (v === undefined) continue;
    path.push(k);
    out += `${first ? '' : ','}${serializeString(k, path)}:${serialize(v, path, seen)}`;
    path.pop();
    first = false;
  }
  return `${out}}`;
}

function serialize(value: unknown, path: PathStack, seen: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return serializeString(value, path);
    case 'number':
      return serializeNumber(value, path);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new JcsError('bigint cannot be represented as an IEEE 754 double', pointer(path));
    case 'undefined':
    case 'function':
    case 'symbol':
      throw new JcsError(`${typeof value} is not a JSON value`, pointer(path));
  }
  if (value === null) return 'null';
  const obj = value as object;
  if (seen.has(obj)) throw new JcsError('cyclic structure', pointer(path));
  if (obj instanceof Uint8Array || obj instanceof Date || obj instanceof Map || obj instanceof Set) {
    throw new JcsError(`${obj.constructor.name} is not a JSON value (encode it first)`, pointer(path));
  }
  seen.add(obj);
  try {
    return Array.isArray(obj)
      ? serializeArray(obj, path, seen)
      : serializeObject(obj as Record<string, unknown>, path, seen);
  } finally {
    seen.delete(obj);
  }
}

/** The RFC 8785 canonical form of a JSON value, as a string. Throws JcsError for what JCS cannot represent. */
export function canonicalize(value: unknown): string {
  return serialize(value, [], new Set());
}

const encoder = new TextEncoder();

/** The RFC 8785 canonical form as UTF-8 bytes: what signatures and digests are computed over. */
export function canonicalBytes(value: unknown): Uint8Array {
  return encoder.encode(canonicalize(value));
}
