/**
 * Vendor-signed firmware manifest (ARCHITECTURE.md §3 PROVENANCE): the payload of a DSSE envelope with
 * payloadType `PAYLOAD_TYPES.firmware`, signed by a `vendor` key. The edge compares the running image's
 * SHA-256 (from the firmware report) with `imageSha256`.
 */
import { type Static, Type } from '@sinclair/typebox';
import { NameSchema, RobotIdSchema, Sha256HexSchema, UnixMsSchema } from './primitives.js';

export const FirmwareManifestSchema = Type.Object(
  {
    v: Type.Literal(1),
    vendor: NameSchema,
    model: NameSchema,
    /** The vendor's version string (`4.2.1`, `2025.06-rc2`). */
    firmwareVersion: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9._+~-]*$' }),
    /** SHA-256 of the firmware image bytes. */
    imageSha256: Sha256HexSchema,
    issuedAt: UnixMsSchema,
    /** When present, the manifest is valid only for these robots; absent means every robot of the model. */
    robotIds: Type.Optional(Type.Array(RobotIdSchema, { minItems: 1, maxItems: 4096, uniqueItems: true })),
  },
  { additionalProperties: false },
);
export type FirmwareManifest = Static<typeof FirmwareManifestSchema>;
