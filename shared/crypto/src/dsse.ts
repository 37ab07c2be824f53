/**
 * DSSE v1 envelopes (github.com/secure-systems-lab/dsse, protocol.md) signed with Ed25519.
 * The signature covers PAE(payloadType, payload), never the base64 text, so re-encoding the
 * envelope cannot change what was signed.
 */
import { canonicalBytes, toBase64, utf8Bytes, validate } from '@pentagate/protocol';
import { assertBytes } from './errors.js';
import type { Ed25519Signer } from './ed25519.js';
import { jcsDigestHex } from './hash.js';
import { type DsseEnvelope, DsseEnvelopeSchema } from '@pentagate/protocol';

/**
 * Pre-Authentication Encoding, DSSE v1:
 *   "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body
 * where LEN is the byte length as ASCII decimal without leading zeros and SP is one space (0x20).
 */
export function pae(payloadType: string, payload: Uint8Array): Uint8Array {
  assertBytes(payload, 'payload');
  const type = utf8Bytes(payloadType);
  const head = utf8Bytes(`DSSEv1 ${type.length} `);
  const middle = utf8Bytes(` ${payload.length} `);
  const out = new Uint8Array(head.length + type.length + middle.length + payload.length);
  out.set(head);
  out.set(type, head.length);
  out.set(middle, head.length + type.length);
  out.set(payload, head.length + type.length + middle.length);
  return out;
}

/** Signs `payload` with one or more signers; signatures appear in the order given. */
export function dsseSign(
  payloadType: string,
  payload: Uint8Array,
  signers: Ed25519Signer | Ed25519Signer[],
): DsseEnvelope {
  const list = Array.isArray(signers) ? signers : [signers];
  if (list.length === 0) throw new RangeError('dsseSign: expected at least one signer, got none');
  const message = pae(payloadType, payload);
  return {
    payloadType,
    payload: toBase64(payload),
    signatures: list.map((s) => ({ keyid: s.keyid, sig: toBase64(s.sign(message)) })),
  };
}

/** Signs a JSON statement; the payload is its RFC 8785 canonical bytes. */
export function dsseSignStatement(
  payloadType: string,
  statement: unknown,
  signer: Ed25519Signer | Ed25519Signer[],
): DsseEnvelope {
  return dsseSign(payloadType, canonicalBytes(statement), signer);
}

/** sha256hex(JCS(envelope)): how audit entries and proof packets name an envelope. */
export function envelopeDigest(envelope: DsseEnvelope): string {
  return jcsDigestHex(validate(DsseEnvelopeSchema, envelope, 'envelope'));
}
