/**
 * Turns any JavaScript value into plain JSON that RFC 8785 can canonicalise, reporting whether anything
 * had to change. Values from HTTP are already JSON; library callers (the kernel, tests) can pass
 * `undefined`, NaN, bigints, functions, cycles or lone surrogates, and evaluation must neither throw nor
 * become nondeterministic on them (such calls are refused, see evaluate-action.ts).
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const MAX_DEPTH = 64;

export interface JsonSafe {
  value: unknown;
  /** The first change made, or undefined when the input was already JSON. */
  change: string | undefined;
}

export function jsonSafe(input: unknown): JsonSafe {
  let change: string | undefined;
  const note = (what: string) => {
    change ??= what;
  };
  const seen = new Set<object>();
  const walk = (v: unknown, depth: number): unknown => {
    switch (typeof v) {
      case 'string': {
        const fixed = v.replace(LONE_SURROGATE, '\ufffd');
        if (fixed !== v) note('a string holds a lone UTF-16 surrogate');
        return fixed;
      }
      case 'number':
        if (Number.isFinite(v)) return Object.is(v, -0) ? 0 : v;
        note(`a number is ${v}`);
        return `<${v}>`;
      case 'boolean':
        return v;
      case 'object': {
        if (v === null) return null;
        if (depth >= MAX_DEPTH) {
          note(`nesting deeper than ${MAX_DEPTH}`);
          return '<too deep>';
        }
        if (seen.has(v)) {
          note('a cycle');
          return '<cycle>';
        }
        seen.add(v);
        let out: unknown;
        if (Array.isArray(v)) {
          out = v.map((x) => {
            if (x !== undefined) return walk(x, depth + 1);
            note('an array holds undefined');
            return null;
          });
        } else {
          const proto = Object.getPrototypeOf(v);
          if (proto !== Object.prototype && proto !== null)
            note(`an object of class ${proto?.constructor?.name ?? '?'}`);
          const o: Record<string, unknown> = {};
          for (const [k, x] of Object.entries(v)) {
            if (x === undefined || typeof x === 'function' || typeof x === 'symbol') {
              note(`member "${k}" is ${typeof x}`);
              continue;
            }
            o[walk(k, depth + 1) as string] = walk(x, depth + 1);
          }
          out = o;
        }
        seen.delete(v);
        return out;
      }
      default:
        note(`a value of type ${typeof v}`);
        return `<${typeof v}>`;
    }
  };
  const value = walk(input, 0);
  return { value, change };
}
