/**
 * String bounds in characters. JSON Schema's minLength and maxLength count characters — Unicode code points
 * (draft 2020-12 validation §6.3.1, RFC 8259) — and the schemas are served as they are written (the agent
 * routes' schema route, /openapi.json), so a client's standard validator counts `😀` as one. The TypeBox
 * compiler compares `value.length`, UTF-16 code units, which counts it as two: a string the served schema
 * allows would be refused. The checker therefore compiles a copy of each schema whose bounded strings carry
 * a registered format that counts code points instead; the schema itself, and what is served, is unchanged.
 */
import { FormatRegistry, Kind, type TSchema } from '@sinclair/typebox';

/** The prefix of the formats made here; the rest of the name is `<min>:<max>`. */
export const CHARACTER_LENGTH_FORMAT = 'pentagate.characters:';

/** Code points in `s`: code units less the surrogate pairs (a lone surrogate counts as one, as a pair). */
export function characterCount(s: string): number {
  let count = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const unit = s.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** The format checking `min..max` characters, registered once per pair of bounds. */
function lengthFormat(min: number, max: number): string {
  const name = `${CHARACTER_LENGTH_FORMAT}${min}:${max}`;
  if (!FormatRegistry.Has(name)) {
    FormatRegistry.Set(name, (s) => {
      // code points ≤ code units: within max units is within max characters, and min ≤ 1 needs no count
      if (s.length <= max && (min <= 1 ? s.length >= min : characterCount(s) >= min)) return true;
      const n = characterCount(s);
      return n >= min && n <= max;
    });
  }
  return name;
}

/** The bounds a characters format names, for error messages. */
export function characterBounds(format: string): { min: number; max: number } | undefined {
  if (!format.startsWith(CHARACTER_LENGTH_FORMAT)) return undefined;
  const [min, max] = format.slice(CHARACTER_LENGTH_FORMAT.length).split(':').map(Number);
  return min === undefined || max === undefined ? undefined : { min, max };
}

type Node = { [key: string | symbol]: unknown };

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A copy of `schema` for the checker: each TypeBox string with a minLength or maxLength (and no format of
 * its own) has them replaced by a characters format with the same bounds. Symbol keys (TypeBox's Kind and
 * modifiers) are kept.
 */
export function withCharacterLengths<T extends TSchema>(schema: T): T {
  return copy(schema) as T;
}

function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (!isNode(value)) return value;
  const out: Node = {};
  for (const key of Object.keys(value)) out[key] = copy(value[key]);
  for (const key of Object.getOwnPropertySymbols(value)) out[key] = value[key];
  const bounded = out.minLength !== undefined || out.maxLength !== undefined;
  if (out[Kind] === 'String' && bounded && out.format === undefined) {
    const min = typeof out.minLength === 'number' ? out.minLength : 0;
    const max = typeof out.maxLength === 'number' ? out.maxLength : Number.MAX_SAFE_INTEGER;
    delete out.minLength;
    delete out.maxLength;
    out.format = lengthFormat(min, max);
  }
  return out;
}
