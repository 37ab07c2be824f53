/**
 * The differences between two JSON values as RFC 6901 JSON Pointers: objects member by member, arrays
 * index by index, anything else by value. Used by replay to say exactly what changed in a decision.
 */
import type { ReplayDifference } from '@pentagate/protocol';
import { pointerToken } from '../json-pointer.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function jsonDiff(
  original: unknown,
  replayed: unknown,
  path = '',
  out: ReplayDifference[] = [],
): ReplayDifference[] {
  if (isObject(original) && isObject(replayed)) {
    const keys = [...new Set([...Object.keys(original), ...Object.keys(replayed)])].sort();
    for (const key of keys) {
      const here = `${path}/${pointerToken(key)}`;
      if (!Object.hasOwn(replayed, key)) out.push({ path: here, original: original[key] });
      else if (!Object.hasOwn(original, key)) out.push({ path: here, replayed: replayed[key] });
      else jsonDiff(original[key], replayed[key], here, out);
    }
    return out;
  }
  if (Array.isArray(original) && Array.isArray(replayed)) {
    const n = Math.max(original.length, replayed.length);
    for (let i = 0; i < n; i++) {
      const here = `${path}/${i}`;
      if (i >= replayed.length) out.push({ path: here, original: original[i] });
      else if (i >= original.length) out.push({ path: here, replayed: replayed[i] });
      else jsonDiff(original[i], replayed[i], here, out);
    }
    return out;
  }
  if (!Object.is(original, replayed)) out.push({ path, original, replayed });
  return out;
}
