/**
 * How an audit entry becomes a Merkle leaf (contract: the leaf is canonicalBytes(entry), RFC 6962 §2.1
 * hashes it as SHA-256(0x00 || leaf)). Both stores keep the JCS text and the leaf hash side by side.
 *
 * The hash runs on node:crypto (as the pentagon's digests do, cloud/src/pentagon/digest.ts) over the
 * text's UTF-8 bytes: the same bytes and digest as `leafHash(utf8Bytes(text))` of @pentagate/crypto
 * (a test pins them equal), without the pure-JS SHA-256 and the extra copy of a ~4 KB entry per append.
 */
import { createHash } from 'node:crypto';
import { type AuditEntry, canonicalize } from '@pentagate/protocol';
import { StoreError } from '../store-error.js';

export interface EncodedAuditEntry {
  text: string;
  leafHash: Uint8Array;
}

const LEAF_PREFIX = new Uint8Array([0]);

/** RFC 6962 §2.1 leaf hash of the UTF-8 bytes of `text`. */
export function leafHashOfText(text: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(LEAF_PREFIX).update(text, 'utf8').digest());
}

/** Encodes the entry built for `index`; a builder that put another index in it is a bug, refused. */
export function encodeAuditEntry(entry: AuditEntry, index: number): EncodedAuditEntry {
  if (entry.index !== index) {
    throw new StoreError(`audit entry: expected index ${index}, got ${entry.index}`);
  }
  const text = canonicalize(entry);
  return { text, leafHash: leafHashOfText(text) };
}
