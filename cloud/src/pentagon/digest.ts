/**
 * SHA-256 for the pentagon, on node:crypto (OpenSSL) rather than @noble/hashes: the cloud is a server
 * package (ARCHITECTURE.md allows node:crypto there) and each evaluation takes five digests, where the
 * one-shot native hash is several times faster than the pure-JS one. The bytes hashed are the same as
 * `sha256Hex`/`jcsDigestHex` of @pentagate/crypto (UTF-8 of the text, lone surrogates as U+FFFD, as
 * TextEncoder does), so every digest is identical to theirs.
 */
import { hash } from 'node:crypto';
import { canonicalize, type DsseEnvelope } from '@pentagate/protocol';

/** SHA-256 (lower-case hex) of the UTF-8 bytes of `text`. */
export function sha256HexOfText(text: string): string {
  return hash('sha256', text, 'hex');
}

/** SHA-256 (lower-case hex) of the RFC 8785 canonical form of `value`; throws JcsError like jcsDigestHex. */
export function jcsSha256Hex(value: unknown): string {
  return hash('sha256', canonicalize(value), 'hex');
}

/**
 * `envelopeDigest` of @pentagate/crypto (sha256hex of the JCS envelope, how audit entries name it) on
 * node:crypto, for envelopes this server signed itself: they are well-formed by construction, so the schema
 * check that function makes on outside input is skipped.
 */
export function ownEnvelopeDigest(envelope: DsseEnvelope): string {
  return jcsSha256Hex(envelope);
}
