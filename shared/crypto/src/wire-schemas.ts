/**
 * Minimal local schemas for the wire formats this package signs, used until @pentagate/protocol's
 * schemas/ folder publishes `MotorCommandSchema`, `DsseEnvelopeSchema` and `TrustDocumentSchema`
 * (see the contract). Only the parts crypto depends on are pinned here; the protocol schemas
 * replace this file when they land.
 */
import { type Static, Type } from '@sinclair/typebox';

const Sha256Hex = Type.String({ pattern: '^[0-9a-f]{64}$' });
const Ms = Type.Integer();

export const UnsignedMotorCommandSchema = Type.Object(
  {
    v: Type.Literal(1),
    kid: Type.String({ minLength: 1 }),
    robotId: Type.String({ minLength: 1 }),
    epoch: Type.Integer({ minimum: 0 }),
    seq: Type.Integer({ minimum: 1 }),
    issuedAt: Ms,
    validUntil: Ms,
    intentId: Type.String({ minLength: 1 }),
    setpoints: Type.Object({ kind: Type.String() }),
    cfgDigest: Sha256Hex,
    evidenceDigest: Sha256Hex,
  },
  { additionalProperties: false },
);
export type UnsignedMotorCommand = Static<typeof UnsignedMotorCommandSchema>;

export const MotorCommandSchema = Type.Object(
  { ...UnsignedMotorCommandSchema.properties, mac: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }) },
  { additionalProperties: false },
);
export type MotorCommand = Static<typeof MotorCommandSchema>;

export const DsseEnvelopeSchema = Type.Object(
  {
    payloadType: Type.String(),
    payload: Type.String(),
    signatures: Type.Array(Type.Object({ keyid: Type.String(), sig: Type.String() }), { minItems: 1 }),
  },
  { additionalProperties: false },
);
export type DsseEnvelope = Static<typeof DsseEnvelopeSchema>;

export const KeyRoleSchema = Type.Union([
  Type.Literal('proof'),
  Type.Literal('checkpoint'),
  Type.Literal('operator'),
  Type.Literal('vendor'),
  Type.Literal('calibration'),
  Type.Literal('custody'),
  Type.Literal('edge'),
]);
export type KeyRole = Static<typeof KeyRoleSchema>;

export const TrustedKeySchema = Type.Object(
  {
    kid: Type.String({ minLength: 1 }),
    alg: Type.Literal('Ed25519'),
    role: KeyRoleSchema,
    publicKey: Type.String(),
    notBefore: Type.Optional(Type.String()),
    notAfter: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    comment: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type TrustedKey = Static<typeof TrustedKeySchema>;

export const TrustDocumentSchema = Type.Object(
  { keys: Type.Array(TrustedKeySchema) },
  { additionalProperties: false },
);
export type TrustDocument = Static<typeof TrustDocumentSchema>;
