/** Object members and array elements of a parsed JSON value in all: what readJson's `maxValues` counts. */
export function jsonValueCount(v: unknown): number {
  if (Array.isArray(v)) return v.length + v.reduce((n: number, x) => n + jsonValueCount(x), 0);
  if (typeof v === 'object' && v !== null) {
    const values = Object.values(v);
    return values.length + values.reduce((n: number, x) => n + jsonValueCount(x), 0);
  }
  return 0;
}
