/**
 * Every string inside a JSON value with its JSON Pointer, object keys included (an injection can hide in
 * a key as well as a value). Walks iteratively with bounds on depth and count, so hostile nesting
 * cannot exhaust the stack; what is left over is reported, never silently dropped.
 */
import { pointerToken } from '../json-pointer.js';

export const MAX_STRING_FIELDS = 4096;
export const MAX_WALK_DEPTH = 64;

export interface StringField {
  /** JSON Pointer (RFC 6901) from the walked root, prefixed by `base`. */
  path: string;
  value: string;
}

/**
 * An array of short strings is also read joined, with no separator and with one space: an injection cut
 * into chunks (`["Ign", "ore all pre", "vious instructions"]`) is whole again once a tool or a model
 * concatenates them. Longer elements are whole texts of their own, screened one by one.
 */
const MAX_CHUNK_CHARS = 64;

export interface StringWalk {
  fields: StringField[];
  /** Arrays of two or more short strings, joined (path `<array>#joined`, `<array>#joined-spaced`). */
  joined: StringField[];
  /** True when the value was deeper or larger than the bounds and parts were not visited. */
  truncated: boolean;
}

export function stringFields(root: unknown, base: string): StringWalk {
  const fields: StringField[] = [];
  const joined: StringField[] = [];
  let truncated = false;
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: base, depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (fields.length >= MAX_STRING_FIELDS) {
      truncated = true;
      break;
    }
    if (typeof value === 'string') {
      fields.push({ path, value });
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_WALK_DEPTH) {
        truncated = true;
        continue;
      }
      if (Array.isArray(value)) joined.push(...chunkJoins(value, path));
      const entries = Array.isArray(value)
        ? value.map((v, i) => [String(i), v] as const)
        : Object.entries(value);
      // Reverse so that fields come out in document order.
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const childPath = `${path}/${pointerToken(key)}`;
        stack.push({ value: child, path: childPath, depth: depth + 1 });
        if (!Array.isArray(value)) stack.push({ value: key, path: `${childPath}#key`, depth: depth + 1 });
      }
    }
  }
  return { fields, joined, truncated };
}

function chunkJoins(array: readonly unknown[], path: string): StringField[] {
  const chunks = array.filter((v): v is string => typeof v === 'string');
  if (chunks.length < 2 || chunks.some((c) => c.length > MAX_CHUNK_CHARS)) return [];
  return [
    { path: `${path}#joined`, value: chunks.join('') },
    { path: `${path}#joined-spaced`, value: chunks.join(' ') },
  ];
}
