/**
 * The edge runs only on Node, so its MACs use node:crypto's HMAC-SHA256 (OpenSSL) rather than the portable
 * @noble/hashes one the shared crypto package defaults to for browsers: same bytes, several times faster,
 * which is most of the signing cost on trapAndSign's hot path. The evidence digest's SHA-256 likewise. test/crypto/node-hmac.test.ts checks both
 * implementations agree on random keys and messages.
 */
import { createHmac, hash } from 'node:crypto';
import { commandMacs, frameMacs, type HmacSha256, type HmacSha256Text } from '@pentagate/crypto';

export const nodeHmacSha256: HmacSha256 = (key, message) => {
  const digest = createHmac('sha256', key).update(message).digest();
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
};

/** The same over text: node:crypto encodes UTF-8 natively, so the JCS string is never copied into JS bytes. */
export const nodeHmacSha256Text: HmacSha256Text = (key, prefix, body) => {
  const digest = createHmac('sha256', key).update(prefix, 'utf8').update(body, 'utf8').digest();
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
};

/** Motor-command signing on the edge. */
export const edgeCommandMacs = commandMacs(nodeHmacSha256, nodeHmacSha256Text);

/** Sensor-frame MAC checks on the edge. */
export const edgeFrameMacs = frameMacs(nodeHmacSha256);

/**
 * Lower-case hex SHA-256 (the evidence digest on the edge). `crypto.hash` (Node ≥ 20.12) is the one-shot form:
 * no Hash object, whose native handle every minor GC would have to release.
 */
export function nodeSha256Hex(bytes: Uint8Array): string {
  return hash('sha256', bytes, 'hex');
}
