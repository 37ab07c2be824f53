/**
 * RFC 6962 §2.1.1 inclusion (audit path) and §2.1.2 consistency proofs as JSON. Hashes are 32-byte SHA-256
 * values in standard base64. A proof in a tree of at most 2^53 - 1 leaves has at most 53 hashes for
 * inclusion and 2·53 for consistency; anything longer is refused before any hashing.
 */
import { type Static, Type } from '@sinclair/typebox';
import { CountSchema, Hash32Base64Schema } from './primitives.js';

export const InclusionProofSchema = Type.Object(
  {
    /** Index of the leaf, from 0 (must be < treeSize; checked by the verifier). */
    leafIndex: CountSchema,
    treeSize: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    hashes: Type.Array(Hash32Base64Schema, { maxItems: 64 }),
  },
  { additionalProperties: false },
);
export type InclusionProof = Static<typeof InclusionProofSchema>;

export const ConsistencyProofSchema = Type.Object(
  {
    oldSize: CountSchema,
    newSize: CountSchema,
    hashes: Type.Array(Hash32Base64Schema, { maxItems: 128 }),
  },
  { additionalProperties: false },
);
export type ConsistencyProof = Static<typeof ConsistencyProofSchema>;
