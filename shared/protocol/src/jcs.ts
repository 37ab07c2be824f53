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

/**
 * An array of finite numbers (trajectory points, joint states: most of a motor command's bytes) in one call:
 * JSON.stringify formats numbers with Number::toString — RFC 8785 §3.2.2.3 names it as the reference — and
 * writes -0 as 0, as JCS requires; with no strings or objects inside there is nothing else to canonicalise.
 * Undefined when an element is not a finite number (the general path then serialises or refuses it).
 */
function finiteNumberArray(arr: readonly unknown[]): string | undefined {
  if ('toJSON' in arr) return undefined; // JSON.stringify would call it; JCS does not
  for (let i = 0; i < arr.length; i++) {
    const x = arr[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) return undefined;
  }
  return JSON.stringify(arr);
}

function serializeArray(arr: readonly unknown[], path: PathStack, seen: Set<object>): string {
  const numbers = finiteNumberArray(arr);
  if (numbers !== undefined) return numbers;
  let out = '[';
  for (let i = 0; i < arr.length; i++) {
    path.push(i);
    out += (i === 0 ? '' : ',') + serialize(arr[i], path, seen);
    path.pop();
  }
  return `${out}]`;
}

/**
 * The member names of `record` in RFC 8785 §3.2.3 order: by UTF-16 code units, which is what `<` on strings
 * compares. Objects in this project have a handful of members, mostly already in order (commands are built that
 * way), and Array.prototype.sort allocates its work arrays even for five names — most of what a motor command's
 * canonicalisation allocated. An insertion sort in place is linear on sorted input and allocates nothing;
 * long name lists go to the built-in sort (same order: it compares code units without a callback).
 */
const INSERTION_SORT_MAX_KEYS = 16;

function sortedKeys(record: object): string[] {
  const keys = Object.keys(record);
  if (keys.length > INSERTION_SORT_MAX_KEYS) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > k) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
}

function serializeObject(record: Record<string, unknown>, path: PathStack, seen: Set<object>): string {
  const keys = sortedKeys(record);
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
  // Plain objects and arrays (what JSON.parse makes) skip the four instanceof tests.
  const proto = Object.getPrototypeOf(obj);
  if (
    proto !== Object.prototype &&
    proto !== Array.prototype &&
    (obj instanceof Uint8Array || obj instanceof Date || obj instanceof Map || obj instanceof Set)
  ) {
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

/**
 * Fast path. RFC 8785 §3.2.2 says its serialisation of primitives is ECMAScript JSON.stringify's (Number::toString
 * for numbers, -0 as 0; for well-formed strings the same minimal escapes with lower-case \u00xx); what JCS adds is
 * the member order (§3.2.3). So a copy of the value whose objects have their members inserted in UTF-16 order,
 * given to JSON.stringify, yields the canonical bytes — in one native call instead of one JS call per value,
 * about twice as fast on a motor command (360 numbers). The copy is made only where JSON.stringify and JCS
 * could disagree is ruled out; anything else — a non-finite number, a string with any surrogate, an
 * integer-like member name (JS objects order those numerically, whatever the insertion order), undefined in an
 * array, a function, a bigint, a non-plain object, depth beyond 64 (or a cycle) — abandons the fast path, and
 * the general serialiser below produces the bytes or the JcsError with its path; so does a member named
 * `__proto__`, which an object literal would take for its prototype. Arrays of finite numbers are used as
 * they are.
 */
const ABANDON: unique symbol = Symbol('jcs fast path abandoned');
const ANY_SURROGATE = /[\ud800-\udfff]/;
const MAX_FAST_DEPTH = 64;

function ordered(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
      return ANY_SURROGATE.test(value) ? ABANDON : value;
    case 'number':
      return Number.isFinite(value) ? value : ABANDON;
    case 'boolean':
      return value;
    case 'object':
      break;
    default:
      return ABANDON;
  }
  if (value === null) return null;
  if (depth > MAX_FAST_DEPTH) return ABANDON;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype || 'toJSON' in value) return ABANDON;
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const x: unknown = value[i];
      if (typeof x === 'number') {
        if (!Number.isFinite(x)) return ABANDON;
        if (copy) copy.push(x);
        continue;
      }
      const y = ordered(x, depth + 1);
      if (y === ABANDON || x === undefined) return ABANDON;
      if (y !== x && !copy) copy = value.slice(0, i);
      if (copy) copy.push(y);
    }
    return copy ?? value;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return ABANDON;
  const record = value as Record<string, unknown>;
  const keys = sortedKeys(record);
  // A plain literal, not Object.create(null): V8 serialises fast-mode objects much faster than dictionaries.
  const copy: Record<string, unknown> = {};
  for (const k of keys) {
    const c = k.charCodeAt(0);
    if ((c >= 0x30 && c <= 0x39) || k === '__proto__' || ANY_SURROGATE.test(k)) return ABANDON;
    const v = record[k];
    if (v === undefined) continue; // omitted, as in the general serialiser
    const y = ordered(v, depth + 1);
    if (y === ABANDON) return ABANDON;
    copy[k] = y;
  }
  return copy;
}

/** The RFC 8785 canonical form of a JSON value, as a string. Throws JcsError for what JCS cannot represent. */
export function canonicalize(value: unknown): string {
  const fast = ordered(value, 0);
  if (fast !== ABANDON) return JSON.stringify(fast);
  return serialize(value, [], new Set());
}

const encoder = new TextEncoder();

/** The RFC 8785 canonical form as UTF-8 bytes: what signatures and digests are computed over. */
export function canonicalBytes(value: unknown): Uint8Array {
  return encoder.encode(canonicalize(value));
}
