/**
 * Hex written as separate bytes: `49 67 6e 6f 72 65 20 61 6c 6c`, `49:67:6e:…`, `49,67,6e,…` (a hex dump's
 * or a byte array's spelling). Each pair is two characters between separators, so the base64-run pass
 * (decode.ts), which needs 24 hex digits in a row, never sees one: the outside review's "spaced hex"
 * instruction passed as noise. A run is `MIN_SPACED_HEX_PAIRS` or more pairs, each followed by one
 * separator of the same kind as the first (a MAC address has six pairs and is not one).
 */
import { CodeUnits } from './code-units.js';

/** Fewest pairs read as a payload: twelve bytes, as HEX asks of unspaced hex. */
export const MIN_SPACED_HEX_PAIRS = 12;
const SEPARATORS = new Set([0x20, 0x3a, 0x2c]); // space, colon, comma

const units = new CodeUnits();

/** 0–9, A–F, a–f. */
function isHexUnit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** Calls `visit(bytes)` with the bytes of each run of spaced hex pairs in `raw`, in order, until it returns false. */
export function eachSpacedHexRun(raw: string, visit: (bytes: Buffer) => boolean): void {
  const u = units.of(raw);
  const n = raw.length;
  for (let i = 0; i + 3 * MIN_SPACED_HEX_PAIRS - 1 <= n; ) {
    // a run starts at a pair that is not the tail of a longer hex token
    if (!isHexUnit(u[i]!) || !isHexUnit(u[i + 1]!) || (i > 0 && isHexUnit(u[i - 1]!))) {
      i++;
      continue;
    }
    const separator = u[i + 2]!;
    if (!SEPARATORS.has(separator)) {
      i++;
      continue;
    }
    let pairs = 0;
    let j = i;
    // a pair, then its separator or the end of the run (anything not a hex digit)
    while (j + 1 < n && isHexUnit(u[j]!) && isHexUnit(u[j + 1]!) && !isHexUnit(u[j + 2]!)) {
      pairs++;
      j += 2;
      if (u[j] !== separator || !isHexUnit(u[j + 1]!)) break;
      j++;
    }
    if (pairs >= MIN_SPACED_HEX_PAIRS) {
      const hex = raw.slice(i, j).split(String.fromCharCode(separator)).join('');
      if (!visit(Buffer.from(hex, 'hex'))) return;
    }
    i = Math.max(j, i + 1);
  }
}
