/**
 * How an audit entry becomes a Merkle leaf (contract: the leaf is canonicalBytes(entry), RFC 6962 §2.1
 * hashes it as SHA-256(0x00 || leaf)). Both stores keep the JCS text and the leaf hash side by side.
 */
import { leafHash } from '@pentagate/crypto';
import { type AuditEntry, canonicalize, utf8Bytes } from '@pentagate/protocol';
import { StoreError } from './store-error.js';

export interface EncodedAuditEntry {
  text: string;
  leafHash: Uint8Array;
}

/** Encodes the entry built for `index`; a builder that put another index in it is a bug, refused. */
export function encodeAuditEntry(entry: AuditEntry, index: number): EncodedAuditEntry {
  if (entry.index !== index) {
    throw new StoreError(`audit entry: expected index ${index}, got ${entry.index}`);
  }
  const text = canonicalize(entry);
  return { text, leafHash: leafHash(utf8Bytes(text)) };
}
