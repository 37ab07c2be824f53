/**
 * Operator consent (ARCHITECTURE.md §4 CONSENT): the payload of a DSSE envelope with payloadType
 * `PAYLOAD_TYPES.consent`, signed by an `operator` key the edge trusts. It binds one intent on one robot
 * for a time window; the nonce makes it single use (the edge remembers spent nonces until `expiresAt`).
 */
import { type Static, Type } from '@sinclair/typebox';
import { IdentifierSchema, RobotIdSchema, Sha256HexSchema, UnixMsSchema } from './primitives.js';

export const ConsentScopeSchema = Type.Union([Type.Literal('high-torque'), Type.Literal('safety-critical')]);
export type ConsentScope = Static<typeof ConsentScopeSchema>;

export const ConsentStatementSchema = Type.Object(
  {
    v: Type.Literal(1),
    /** SHA-256 of the JCS intent the operator looked at. */
    intentDigest: Sha256HexSchema,
    robotId: RobotIdSchema,
    operatorId: IdentifierSchema,
    scope: ConsentScopeSchema,
    /** Unix ms before which the consent is not valid. */
    notBefore: UnixMsSchema,
    /** Unix ms after which the consent is no longer valid. */
    expiresAt: UnixMsSchema,
    /** At least 16 base64url characters (96 bits) of randomness; makes the token single use. */
    nonce: Type.String({ minLength: 16, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }),
  },
  { additionalProperties: false },
);
export type ConsentStatement = Static<typeof ConsentStatementSchema>;
