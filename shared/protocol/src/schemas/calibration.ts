/**
 * Calibration certificate for one sensor (ARCHITECTURE.md §3 PROVENANCE): the payload of a DSSE envelope with
 * payloadType `PAYLOAD_TYPES.calibration`, signed by a `calibration` (lab) key. An expired certificate
 * fails the PROVENANCE gate.
 */
import { type Static, Type } from '@sinclair/typebox';
import { IdentifierSchema, JsonObjectSchema, NameSchema, RobotIdSchema, UnixMsSchema } from './primitives.js';

export const CalibrationCertificateSchema = Type.Object(
  {
    v: Type.Literal(1),
    /** The calibration lab that signed. */
    lab: NameSchema,
    robotId: RobotIdSchema,
    sensorId: IdentifierSchema,
    /** The lab's id for this calibration run. */
    calibrationId: IdentifierSchema,
    issuedAt: UnixMsSchema,
    expiresAt: UnixMsSchema,
    /** Calibration results (offsets, gains, intrinsics); the lab chooses the members and their units. */
    parameters: Type.Optional(JsonObjectSchema),
  },
  { additionalProperties: false },
);
export type CalibrationCertificate = Static<typeof CalibrationCertificateSchema>;
