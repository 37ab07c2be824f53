/**
 * Operator consent (ARCHITECTURE.md §4 CONSENT): the payload of a DSSE envelope with payloadType
 * `PAYLOAD_TYPES.consent`, signed by an `operator` key the edge trusts. It binds one intent on one robot
 * for a time window; the nonce makes it single use (the edge remembers spent nonces until `expiresAt`).
 */
import { type Static, Type } from '@sinclair/typebox';
import { IdentifierSchema, RobotIdSchema, Sha256HexSchema, UnixMsSchema } from './primitives.js';

export const ConsentScopeSchema = Type.Union([Type.Literal('high-torque'), Type.Literal('safety-critical')]);
export type ConsentScope = Static<typeof ConsentScopeSchema>;

/**
 * What the operator decided on the move. Absent means `grant` (statements signed before denial existed stay
 * valid, byte for byte); `deny` refuses the move at once, instead of leaving the edge to veto it at its
 * deadline. An edge that does not know the field refuses the token (the schema allows no other member), so
 * the move still waits and is vetoed at its deadline: a denial never releases anything.
 */
export const ConsentDecisionSchema = Type.Union([Type.Literal('grant'), Type.Literal('deny')]);
export type ConsentDecision = Static<typeof ConsentDecisionSchema>;

/** The decision a statement carries: `grant` unless it says `deny`. */
export function consentDecisionOf(statement: { decision?: ConsentDecision }): ConsentDecision {
  return statement.decision === 'deny' ? 'deny' : 'grant';
}

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
    decision: Type.Optional(ConsentDecisionSchema),
  },
  { additionalProperties: false },
);
export type ConsentStatement = Static<typeof ConsentStatementSchema>;
