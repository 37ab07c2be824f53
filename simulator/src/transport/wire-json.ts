/**
 * JSON for the wire, except that a non-finite number is written as the bare token a C driver's `printf("%f")`
 * would print (`NaN`, `Infinity`) instead of JSON.stringify's silent `null`. For a proximity frame `null` means
 * "nobody there": a broken sensor must never turn into an all-clear on the way out (ARCHITECTURE.md §6).
 */
const MARK = '\u0000nonfinite:';

export function toWireJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'number' && !Number.isFinite(v) ? `${MARK}${String(v)}` : v,
  );
  return text.replace(/"\\u0000nonfinite:(-?Infinity|NaN)"/g, '$1');
}
