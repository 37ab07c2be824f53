/**
 * Text as every store and canonical form here can hold it. A lone surrogate has no UTF-8 form, so RFC 8785
 * canonicalisation refuses it (RFC 7493 §2.1), and PostgreSQL text cannot hold U+0000, so the cloud refuses
 * any body carrying either: both become U+FFFD. Used where text that came from outside (a refusal's message,
 * a malformed MQTT payload quoted in a verdict) is written into an audit record.
 */
import { withoutLoneSurrogates } from './json-reader.js';

export function storableText(s: string): string {
  return withoutLoneSurrogates(s).replaceAll('\u0000', '\uFFFD');
}

/**
 * A JSON value with every string and member name made storable, and every non-finite number null (what
 * JSON.stringify writes for one, and RFC 8785 cannot write at all). Values that need no change are
 * returned as they are, so the common case copies nothing.
 */
export function storableJson<T>(value: T): T {
  return storable(value, 0) as T;
}

/** Deeper than any verdict; a cycle or hostile nesting stops here rather than exhausting the stack. */
const MAX_DEPTH = 64;

function storable(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return storableText(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    const items = value.map((v) => storable(v, depth + 1));
    return items.every((v, i) => v === value[i]) ? value : items;
  }
  let changed = false;
  const entries = Object.entries(value).map(([k, v]) => {
    const key = storableText(k);
    const child = storable(v, depth + 1);
    if (key !== k || child !== v) changed = true;
    return [key, child] as const;
  });
  return changed ? Object.fromEntries(entries) : value;
}
