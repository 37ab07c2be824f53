/**
 * The evidence digest every signed command and verdict carries: jcsDigestHex of the telemetry frames the gates
 * consulted, sorted by source. The array's JCS is spliced from each frame's canonical bytes, kept since ingest:
 * `[` f₁ `,` f₂ … `]` is exactly RFC 8785 for an array (no whitespace), so no frame is serialised again on the
 * hot path.
 */
import { nodeSha256Hex } from '../crypto/node-hmac.js';
import type { StoredFrame } from '../telemetry/telemetry-store.js';

/** The spliced bytes' buffer, reused from call to call and grown when a larger set of frames comes. */
let spliced = new Uint8Array(4096);

export function evidenceDigest(evidence: ReadonlyMap<string, StoredFrame>): string {
  const frames = [...evidence.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  let length = 2 + Math.max(0, frames.length - 1);
  for (const [, f] of frames) length += f.canonical.length;
  if (spliced.length < length) spliced = new Uint8Array(Math.max(length, 2 * spliced.length));
  const bytes = spliced;
  bytes[0] = 0x5b; // [
  let at = 1;
  for (let i = 0; i < frames.length; i++) {
    if (i > 0) bytes[at++] = 0x2c; // ,
    const c = frames[i]![1].canonical;
    bytes.set(c, at);
    at += c.length;
  }
  bytes[at] = 0x5d; // ]
  return nodeSha256Hex(bytes.subarray(0, length));
}
