/**
 * Strict reading of JSON from outside (files, MQTT payloads, serial lines, request bodies): I-JSON
 * (RFC 7493) and a size and depth limit, each refusal a clear error with its position.
 *
 * JSON.parse is lenient where a gate must not be: a duplicate member name silently keeps the last value
 * (`{"nearestHumanM":0.3,"nearestHumanM":null}` would read as "nobody present"), integers beyond 2^53 - 1
 * are silently rounded (a rounded seq or amount must never be signed), `1e309` becomes Infinity, and lone
 * surrogates pass into strings no canonical encoding can carry. One linear scan after JSON.parse refuses
 * all of these, nesting deeper than `maxDepth` (recursive consumers would exhaust the stack), and members
 * named `__proto__`, however escaped (a later spread or merge would turn one into a prototype).
 */
import { InvalidInputError } from './errors.js';

export const DEFAULT_MAX_JSON_BYTES = 1024 * 1024;
/** Deep enough for any document Pentagate reads; far from what recursive canonicalizers can take. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

export interface ReadJsonOptions {
  /** What is being read, for the error message: "motor command", "trust file trust.json". */
  what: string;
  maxBytes?: number;
  /** Deepest nesting of objects and arrays accepted (default 64). */
  maxDepth?: number;
  /**
   * Most object members and array elements in all (default: no limit). Every consumer walks each value at
   * least once (validation, canonicalisation, digests), so this bounds the work a document can cause
   * where its byte size alone does not: a megabyte of `"k1":0,` is 100,000 members.
   */
  maxValues?: number;
  /**
   * Refuse U+0000 in strings and member names (default: accepted, as JSON allows it). PostgreSQL text and
   * jsonb cannot hold it, so a reader whose strings may reach such a store (the cloud's request bodies,
   * whose refusals and records go to the audit log) refuses it up front instead of failing at the write.
   */
  refuseNul?: boolean;
}

/** The document is over a size limit (bytes or values): a request too large, not malformed. */
export class JsonTooLargeError extends InvalidInputError {}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LOWER_U = 0x75;

/** A surrogate not part of a high+low pair (RFC 7493 §2.1 forbids them; UTF-8 cannot encode them). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

export function hasLoneSurrogate(s: string): boolean {
  return LONE_SURROGATE.test(s);
}

/** `s` with each lone surrogate replaced by U+FFFD, for text that must be canonicalized or stored. */
export function withoutLoneSurrogates(s: string): string {
  return LONE_SURROGATE.test(s) ? s.replace(LONE_SURROGATES, '\uFFFD') : s;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

function quoted(name: string): string {
  const shown = name.length <= 40 ? name : `${name.slice(0, 40)}…`;
  // JSON.stringify escapes lone surrogates, so the message itself stays well-formed
  return JSON.stringify(shown);
}

/**
 * The member names of one object. Most objects have a handful of members, for which a linear search of
 * an array is cheaper than building a Set; large objects switch to a Set so the scan stays linear.
 */
class MemberNames {
  #list: string[] = [];
  #set: Set<string> | undefined;

  /** Adds `name`; false when it was already there. */
  add(name: string): boolean {
    if (this.#set !== undefined) {
      if (this.#set.has(name)) return false;
      this.#set.add(name);
      return true;
    }
    const list = this.#list;
    for (let k = 0; k < list.length; k++) if (list[k] === name) return false;
    list.push(name);
    if (list.length > 16) this.#set = new Set(list);
    return true;
  }
}

/** A problem found in the text, and the offset of the token it is about. */
interface TextProblem {
  message: string;
  offset: number;
}

/**
 * Walks text that JSON.parse has accepted, so its syntax is known to be valid: only the tokens that
 * matter are looked at. Returns the first problem, or undefined.
 */
function findIJsonProblem(text: string, maxDepth: number, refuseNul: boolean): TextProblem | undefined {
  const len = text.length;
  // one entry per open container: the member names seen so far (object) or null (array)
  const open: (MemberNames | null)[] = [];
  let expectName = false;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      let escaped = false;
      let unicode = false;
      for (i++; i < len; i++) {
        const d = text.charCodeAt(i);
        if (d === QUOTE) break;
        if (d === BACKSLASH) {
          escaped = true;
          if (text.charCodeAt(++i) === LOWER_U) unicode = true;
        } else if (d >= 0xd800 && d <= 0xdfff) unicode = true;
      }
      if (!expectName && !unicode) continue;
      const value =
        escaped || unicode ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
      if (unicode && LONE_SURROGATE.test(value)) {
        return {
          message: 'expected well-formed Unicode strings (RFC 7493 §2.1), got a lone surrogate in the string',
          offset: start,
        };
      }
      // JSON.parse refuses a raw U+0000 in a string, so it can only come as the escape \u0000
      if (refuseNul && unicode && value.includes('\u0000')) {
        return {
          message: 'expected strings without U+0000 (no stored text can hold it), got one in the string',
          offset: start,
        };
      }
      if (expectName) {
        if (value === '__proto__') {
          return {
            message:
              'expected no member named "__proto__" (an object spread or merge later could poison a prototype), got one',
            offset: start,
          };
        }
        if (!open[open.length - 1]!.add(value)) {
          return {
            message: `expected each member name once per object (RFC 7493 §2.3), got ${quoted(value)} again`,
            offset: start,
          };
        }
        expectName = false;
      }
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      open.push(c === 0x7b ? new MemberNames() : null);
      if (open.length > maxDepth) {
        return { message: `expected nesting at most ${maxDepth} deep, got deeper`, offset: i };
      }
      expectName = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      open.pop();
    } else if (c === 0x2c /* , */) {
      expectName = open[open.length - 1] !== null;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const problem = numberProblem(text, i);
      if (typeof problem === 'string') return { message: problem, offset: i };
      i = problem - 1;
    }
  }
  return undefined;
}

/** RFC 6901 §3: `~` and `/` in a reference token are written `~0` and `~1`. */
function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The JSON Pointer (RFC 6901) of the value or member name starting at `offset` of text JSON.parse has
 * accepted. Run only for a refusal, so the scan of every accepted document stays as it is.
 */
function pointerAt(text: string, offset: number): string {
  // the reference token of the value being read at each open container: a member name or an index
  const path: (string | number)[] = [];
  const inObject: boolean[] = [];
  let expectName = false;
  const skipString = (i: number): number => {
    for (i++; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === QUOTE) return i;
      if (d === BACKSLASH) i++;
    }
    return i;
  };
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = skipString(i);
      if (expectName) path[path.length - 1] = JSON.parse(text.slice(i, end + 1)) as string;
      expectName = false;
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      inObject.push(c === 0x7b);
      path.push(c === 0x7b ? '' : 0);
      expectName = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      inObject.pop();
      path.pop();
    } else if (c === 0x2c /* , */) {
      if (inObject[inObject.length - 1]) expectName = true;
      else path[path.length - 1] = (path[path.length - 1] as number) + 1;
    }
  }
  // a member name at `offset` (given twice, __proto__, a lone surrogate in it) is referred to by itself
  if (expectName && text.charCodeAt(offset) === QUOTE)
    path[path.length - 1] = JSON.parse(text.slice(offset, skipString(offset) + 1)) as string;
  return path.map((token) => `/${pointerToken(token)}`).join('');
}

/** Longest pointer a message shows; `details.issues` keeps it whole. */
const MAX_SHOWN_POINTER = 200;

/**
 * The refusal of `problem`, naming its offset and the JSON Pointer of the value, in the message and as a
 * validation issue (`details.issues`, as schema validation reports them). A lone surrogate in a member
 * name is shown as U+FFFD: the pointer goes back to the caller as JSON.
 */
function refusal(what: string, text: string, problem: TextProblem): InvalidInputError {
  const path = withoutLoneSurrogates(pointerAt(text, problem.offset));
  const shown = path.length <= MAX_SHOWN_POINTER ? path : `${path.slice(0, MAX_SHOWN_POINTER)}…`;
  const message = `${problem.message} at offset ${problem.offset}, JSON Pointer ${JSON.stringify(shown)}`;
  return new InvalidInputError(`${what}: ${message}`, { issues: [{ path, message }] });
}

/**
 * Where `text` holds its (maxValues + 1)-th object member or array element, or −1 when it holds no more
 * than `maxValues`: one per comma outside strings, plus the first of each non-empty container. Run before
 * JSON.parse, which alone took most of the time of a large refused document; on malformed text the count
 * is of what it would hold.
 */
function valueLimitOffset(text: string, maxValues: number): number {
  let values = 0;
  let justOpened = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (justOpened && c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) {
      justOpened = false;
      if (c !== 0x7d /* } */ && c !== 0x5d /* ] */ && ++values > maxValues) return i;
    }
    if (c === QUOTE) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === QUOTE) break;
        if (d === BACKSLASH) i++;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) justOpened = true;
    else if (c === 0x2c /* , */ && ++values > maxValues) return i;
  }
  return -1;
}

/**
 * Checks the number literal starting at `start`; returns the index after it, or the problem. Integers of
 * 16+ digits and literals with an exponent are the only ones that can round or overflow.
 */
function numberProblem(text: string, start: number): number | string {
  let j = start;
  if (text.charCodeAt(j) === 0x2d) j++;
  const digitsStart = j;
  while (isDigit(text.charCodeAt(j))) j++;
  const integerDigits = j - digitsStart;
  let isInteger = true;
  let hasExponent = false;
  for (;;) {
    const d = text.charCodeAt(j);
    if (d === 0x2e) isInteger = false;
    else if (d === 0x65 || d === 0x45) {
      isInteger = false;
      hasExponent = true;
    } else if (!(isDigit(d) || d === 0x2b || d === 0x2d)) break;
    j++;
  }
  if (isInteger && integerDigits >= 16 && !Number.isSafeInteger(Number(text.slice(start, j)))) {
    return `expected integers within ±(2^53 - 1), got ${text.slice(start, j)}, which would lose precision`;
  }
  if ((hasExponent || integerDigits > 300) && !Number.isFinite(Number(text.slice(start, j)))) {
    const literal = j - start <= 40 ? text.slice(start, j) : `a ${j - start}-character number`;
    return `expected numbers within the IEEE 754 double range (RFC 7493 §2.2), got ${literal}, which is not finite`;
  }
  return j;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Parses JSON text strictly; throws InvalidInputError that names what was expected and what came. */
export function readJson(input: string | Uint8Array, options: ReadJsonOptions): unknown {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_JSON_BYTES;
  // a UTF-16 code unit is at most 3 UTF-8 bytes, so short strings need no byte count
  const size =
    typeof input !== 'string'
      ? input.byteLength
      : input.length * 3 <= maxBytes
        ? input.length
        : Buffer.byteLength(input);
  if (size > maxBytes) {
    throw new JsonTooLargeError(`${options.what}: expected at most ${maxBytes} bytes of JSON, got ${size}`);
  }
  let text: string;
  try {
    text = typeof input === 'string' ? input : fatalUtf8.decode(input);
  } catch {
    throw new InvalidInputError(`${options.what}: expected UTF-8 JSON, got bytes that are not valid UTF-8`);
  }
  const maxValues = options.maxValues ?? Number.POSITIVE_INFINITY;
  const overAt = Number.isFinite(maxValues) ? valueLimitOffset(text, maxValues) : -1;
  if (overAt >= 0) {
    throw new JsonTooLargeError(
      `${options.what}: expected at most ${maxValues} object members and array elements in all, got more by offset ${overAt}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // JSON.parse calls a blank document "Unexpected end of JSON input"; say what came (RFC 8259 §2 whitespace)
    const got = /^[ \t\n\r]*$/.test(text)
      ? text.length === 0
        ? 'nothing'
        : 'only whitespace'
      : `malformed text (${(err as Error).message})`;
    throw new InvalidInputError(`${options.what}: expected JSON, got ${got}`);
  }
  const problem = findIJsonProblem(
    text,
    options.maxDepth ?? DEFAULT_MAX_JSON_DEPTH,
    options.refuseNul === true,
  );
  if (problem !== undefined) throw refusal(options.what, text, problem);
  return value;
}
