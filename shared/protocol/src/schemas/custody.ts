/**
 * Chain-of-custody attestation for a data set (ARCHITECTURE.md §3 PROVENANCE, digital side): the payload of a
 * DSSE envelope with payloadType `PAYLOAD_TYPES.custody`, signed by a `custody` key. A data argument whose
 * digest has no valid attestation fails PROVENANCE.
 */
import { type Static, Type } from '@sinclair/typebox';
import { NameSchema, Sha256HexSchema, UnixMsSchema } from './primitives.js';

export const CustodyAttestationSchema = Type.Object(
  {
    v: Type.Literal(1),
    /** SHA-256 of the data bytes (for JSON data: of their JCS form). */
    dataDigest: Sha256HexSchema,
    /** Where the data came from (system, sensor, URL origin). */
    source: NameSchema,
    /** Who holds it now and signs for it. */
    custodian: NameSchema,
    issuedAt: UnixMsSchema,
    /** Earlier custodians, oldest first. */
    chain: Type.Optional(Type.Array(NameSchema, { maxItems: 64 })),
  },
  { additionalProperties: false },
);
export type CustodyAttestation = Static<typeof CustodyAttestationSchema>;
