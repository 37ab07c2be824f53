/**
 * Trust documents: the public keys a verifier accepts, each for one role and an optional validity window.
 * The same JSON is served at `GET /api/v1/keys`, so an auditor can save that response and use it as the
 * trust file. Keys are listed, never inferred: a signature by a key not listed here is refused.
 */
import { type Static, Type } from '@sinclair/typebox';
import { IsoTimestampSchema, KeyIdSchema, base64UrlOfBytesSchema, textSchema } from './primitives.js';

export const KEY_ROLES = [
  'proof',
  'checkpoint',
  'operator',
  'vendor',
  'calibration',
  'custody',
  'edge',
] as const;

/**
 * What a key may sign: `proof` decision statements; `checkpoint` log checkpoints; `operator` consent;
 * `vendor` firmware manifests; `calibration` calibration certificates; `custody` custody attestations;
 * `edge` events an edge node forwards to the cloud.
 */
export const KeyRoleSchema = Type.Union(KEY_ROLES.map((r) => Type.Literal(r)));
export type KeyRole = Static<typeof KeyRoleSchema>;

export const TrustedKeySchema = Type.Object(
  {
    /** `ed25519KeyId(publicKey)`; the verifier recomputes it and refuses a mismatch. */
    kid: KeyIdSchema,
    alg: Type.Literal('Ed25519'),
    role: KeyRoleSchema,
    /** The raw 32-byte Ed25519 public key, unpadded base64url (43 characters). */
    publicKey: base64UrlOfBytesSchema(32),
    /** Signatures made before this instant are not accepted. */
    notBefore: Type.Optional(IsoTimestampSchema),
    /** Signatures made after this instant are not accepted. */
    notAfter: Type.Optional(IsoTimestampSchema),
    /**
     * Signer name for C2SP signed notes (the log origin for checkpoint keys): non-empty, no whitespace,
     * no `+` (c2sp.org/signed-note, "Verifier keys").
     */
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\s+]+$' })),
    comment: Type.Optional(textSchema(512)),
  },
  { additionalProperties: false },
);
export type TrustedKey = Static<typeof TrustedKeySchema>;

export const TrustDocumentSchema = Type.Object(
  { keys: Type.Array(TrustedKeySchema, { minItems: 1, maxItems: 1024 }) },
  { additionalProperties: false },
);
export type TrustDocument = Static<typeof TrustDocumentSchema>;
