/**
 * The request body as JSON text, or why it cannot be sent. `JSON.stringify` does not refuse what JSON
 * (RFC 8259 §6) cannot carry: it sends NaN and ±Infinity as `null`, `undefined` and functions in an array
 * as `null`, and throws on a BigInt or a cycle. The kernel would then decide — and sign — another action
 * than the one the agent goes on to run (a data:export of `recordCount: Infinity` arrives as `null`, no
 * count at all), so such a value is refused before anything is sent.
 */

/** RFC 6901 JSON Pointer token. */
const token = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

function problemAt(value: unknown, pointer: string, inArray: boolean, seen: object[]): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value)
        ? undefined
        : `${pointer} is ${value}, which JSON cannot carry (it would be sent as null)`;
    case 'undefined':
    case 'function':
    case 'symbol':
      // As an object member these are left out, as JSON.stringify does (an optional field not given);
      // inside an array they would become null.
      return inArray
        ? `${pointer} is ${typeof value}, which JSON cannot carry (it would be sent as null)`
        : undefined;
    case 'bigint':
      return `${pointer} is a BigInt, which JSON cannot carry; send it as a number or a string`;
    default:
      break;
  }
  if (value === null) return undefined;
  const obj = value as Record<string, unknown> & { toJSON?: unknown };
  if (typeof obj.toJSON === 'function') return undefined; // e.g. a Date: its own JSON form is sent
  if (seen.includes(obj))
    return `${pointer} refers back to an enclosing value (a cycle), which JSON cannot carry`;
  seen.push(obj);
  const entries: [string, unknown][] = Array.isArray(obj)
    ? obj.map((v, i) => [String(i), v])
    : Object.entries(obj);
  for (const [k, v] of entries) {
    const problem = problemAt(v, `${pointer}/${token(k)}`, Array.isArray(obj), seen);
    if (problem !== undefined) return problem;
  }
  seen.pop();
  return undefined;
}

/** Why `body` cannot be sent as JSON without changing it, or undefined when it can. */
export function jsonBodyProblem(body: unknown): string | undefined {
  return problemAt(body, '', false, []);
}
