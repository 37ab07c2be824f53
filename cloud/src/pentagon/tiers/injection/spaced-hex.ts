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

const HEX = 1;
const SEPARATOR = 2;
/** Per ASCII unit: HEX for 0–9, A–F, a–f; SEPARATOR for space, colon, comma. */
const CLASS = new Uint8Array(0x80);
for (const c of '0123456789abcdefABCDEF') CLASS[c.charCodeAt(0)] = HEX;
for (const c of ' :,') CLASS[c.charCodeAt(0)] = SEPARATOR;

const units = new CodeUnits();

/**
 * Calls `visit(bytes)` with the bytes of each run of spaced hex pairs in `raw`, in order, until it returns
 * false. Inside a run every unit is a hex digit or a separator, so the text is first read every third unit:
 * a run of `MIN_SPACED_HEX_PAIRS` pairs (35 units or more) holds at least ten such units in a row at any
 * stride-3 alignment, and ordinary text, where about a third of the units are hex digits or blanks, almost
 * never does. Only text that does is read unit by unit (`runsFrom`): a third of the reads on text with no
 * run, which is nearly all.
 */
export function eachSpacedHexRun(raw: string, visit: (bytes: Buffer) => boolean): void {
  const u = units.of(raw);
  const n = raw.length;
  const needed = Math.floor((3 * MIN_SPACED_HEX_PAIRS - 1) / 3) - 1;
  let inRow = 0;
  for (let i = 0; i < n; i += 3) {
    const c = u[i]!;
    if (c >= 0x80 || CLASS[c] === 0) inRow = 0;
    else if (++inRow >= needed) {
      runsFrom(raw, u, n, visit);
      return;
    }
  }
}

/** Reads the text unit by unit, visiting each run of spaced pairs, until `visit` returns false. */
function runsFrom(raw: string, u: Uint16Array, n: number, visit: (bytes: Buffer) => boolean): void {
  const classOf = (i: number): number => {
    const c = u[i]!;
    return c < 0x80 ? CLASS[c]! : 0;
  };
  for (let s = 2; s + 3 < n; s++) {
    const separator = u[s]!;
    if (separator >= 0x80 || CLASS[separator] !== SEPARATOR) continue;
    // the pair before the separator is two hex digits, not the tail of a longer token
    if (classOf(s - 1) !== HEX || classOf(s - 2) !== HEX || (s >= 3 && classOf(s - 3) === HEX)) continue;
    let pairs = 1;
    let j = s;
    // each step: this separator, then a pair of exactly two digits
    while (
      j + 2 < n &&
      u[j] === separator &&
      classOf(j + 1) === HEX &&
      classOf(j + 2) === HEX &&
      (j + 3 >= n || classOf(j + 3) !== HEX)
    ) {
      pairs++;
      j += 3;
    }
    if (pairs >= MIN_SPACED_HEX_PAIRS) {
      const hex = raw
        .slice(s - 2, j)
        .split(String.fromCharCode(separator))
        .join('');
      if (!visit(Buffer.from(hex, 'hex'))) return;
      s = j;
    } else {
      // too short: its last pair may still open a run under another separator (`ad be ef 00:00:…`)
      s = Math.max(s, j - 1);
    }
  }
}
