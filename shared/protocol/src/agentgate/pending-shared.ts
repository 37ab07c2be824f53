/**
 * Stand-ins for three shapes the protocol helper's `schemas/` folder will publish (the contract names
 * `DsseEnvelopeSchema`, `AuthorizationStatusSchema` and a `{ code, vertex, message }` violation). They are
 * deliberately NOT re-exported from the package index, so they can never clash with the real ones; when
 * `schemas/` lands, the agentgate files import from there and this file is deleted. The shapes here are
 * exactly the contract's, so no wire format changes on the switch.
 */
import { type Static, Type } from '@sinclair/typebox';
import { IdentifierSchema, textSchema } from '../schemas/primitives.js';

/** DSSE v1 envelope (https://github.com/secure-systems-lab/dsse/blob/master/envelope.md). */
export const PendingDsseEnvelopeSchema = Type.Object(
  {
    payloadType: Type.String({ minLength: 1, maxLength: 256 }),
    payload: Type.String({ maxLength: 1_048_576 }),
    signatures: Type.Array(
      Type.Object(
        { keyid: Type.String({ maxLength: 128 }), sig: Type.String({ maxLength: 1024 }) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 16 },
    ),
  },
  { additionalProperties: false },
);
export type PendingDsseEnvelope = Static<typeof PendingDsseEnvelopeSchema>;

/** The four outcomes of an authorization (DESIGN.md §3, CONSENT row). */
export const PendingAuthorizationStatusSchema = Type.Union([
  Type.Literal('ALLOW'),
  Type.Literal('DENY'),
  Type.Literal('REQUIRE_HUMAN'),
  Type.Literal('HELD_FOR_VETO'),
]);

/** The five vertices of the pentagon (DESIGN.md §3). */
export const PendingVertexSchema = Type.Union([
  Type.Literal('INVARIANT'),
  Type.Literal('ECONOMY'),
  Type.Literal('RISK'),
  Type.Literal('PROVENANCE'),
  Type.Literal('CONSENT'),
]);

/** One broken rule: a stable code (`VERTEX.NAME`), its vertex and a readable message. */
export const PendingViolationSchema = Type.Object(
  { code: IdentifierSchema, vertex: PendingVertexSchema, message: textSchema() },
  { additionalProperties: false },
);
