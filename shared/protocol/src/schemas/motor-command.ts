/**
 * The signed motor command, edge → controller (ARCHITECTURE.md §4), on MQTT `pentagate/v1/<robotId>/cmd`.
 * `mac` = base64url(HMAC-SHA256(key, "pentagate-cmd-v1\n" + JCS(command without mac))); see
 * `computeCommandMac` in @pentagate/crypto. Unknown members are refused: the MAC covers every member but
 * `mac`, and a controller must not act on a member it was not told about.
 */
import { type Static, Type } from '@sinclair/typebox';
import { SetpointsSchema } from './setpoints.js';
import {
  IdentifierSchema,
  KeyIdSchema,
  RobotIdSchema,
  Sha256HexSchema,
  UnixMsSchema,
  base64UrlOfBytesSchema,
} from './primitives.js';

const unsignedFields = {
  v: Type.Literal(1),
  /** Key id of the HMAC key (`hmacKeyId`). */
  kid: KeyIdSchema,
  robotId: RobotIdSchema,
  /** Bumped on every stop, fault or configuration change; older epochs are refused. */
  epoch: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  /** Persisted monotonic counter, strictly increasing within the robot. */
  seq: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  /** When the edge signed it, Unix ms. */
  issuedAt: UnixMsSchema,
  /** Last instant the controller may act on it, Unix ms (a few sensor periods after issuedAt). */
  validUntil: UnixMsSchema,
  /** The intent this command carries out. */
  intentId: IdentifierSchema,
  setpoints: SetpointsSchema,
  /** SHA-256 of the JCS robot profile the gates used. */
  cfgDigest: Sha256HexSchema,
  /** SHA-256 of the JCS evidence (the exact telemetry frames) the gates decided on. */
  evidenceDigest: Sha256HexSchema,
};

export const UnsignedMotorCommandSchema = Type.Object(unsignedFields, { additionalProperties: false });
export type UnsignedMotorCommand = Static<typeof UnsignedMotorCommandSchema>;

/** The 32-byte HMAC-SHA256 tag in unpadded base64url: 43 characters. */
export const CommandMacSchema = base64UrlOfBytesSchema(32);

export const MotorCommandSchema = Type.Object(
  { ...unsignedFields, mac: CommandMacSchema },
  { additionalProperties: false },
);
export type MotorCommand = Static<typeof MotorCommandSchema>;
