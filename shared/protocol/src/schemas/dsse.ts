/**
 * DSSE v1 envelopes (github.com/secure-systems-lab/dsse, envelope.md) and the payload types Pentagate signs.
 * The signature is over PAE(payloadType, payload bytes), so the envelope's JSON form is not itself signed;
 * unknown members are refused anyway so that what is stored is exactly what was verified.
 */
import { type Static, Type } from '@sinclair/typebox';
import { KeyIdSchema, base64Schema } from './primitives.js';

export const PAYLOAD_TYPES = {
  /** in-toto Statement v1 (decision proofs, governance tokens). */
  inToto: 'application/vnd.in-toto+json',
  /** Operator consent for one high-torque or safety-critical intent. */
  consent: 'application/vnd.pentagate.consent+json',
  /** Vendor-signed firmware manifest. */
  firmware: 'application/vnd.pentagate.firmware+json',
  /** Calibration-lab certificate for one sensor. */
  calibration: 'application/vnd.pentagate.calibration+json',
  /** Chain-of-custody attestation for a data set. */
  custody: 'application/vnd.pentagate.custody+json',
} as const;
export type PayloadType = (typeof PAYLOAD_TYPES)[keyof typeof PAYLOAD_TYPES];

/** Largest payload accepted: 1 MiB of bytes, which is 1,398,104 base64 characters. */
export const MAX_DSSE_PAYLOAD_BYTES = 1024 * 1024;

export const DsseSignatureSchema = Type.Object(
  {
    /** Which trusted key made the signature (a hint for lookup; the signature is what counts). */
    keyid: KeyIdSchema,
    /** The signature over PAE, standard padded base64 (88 characters for Ed25519). */
    sig: base64Schema(1024),
  },
  { additionalProperties: false },
);
export type DsseSignature = Static<typeof DsseSignatureSchema>;

export const DsseEnvelopeSchema = Type.Object(
  {
    /** A media type (RFC 6838), e.g. `application/vnd.in-toto+json`. */
    payloadType: Type.String({
      minLength: 3,
      maxLength: 128,
      pattern: '^[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*$',
    }),
    /** The payload bytes in standard padded base64 (for statements: the JCS bytes). */
    payload: base64Schema(4 * Math.ceil(MAX_DSSE_PAYLOAD_BYTES / 3), 0),
    signatures: Type.Array(DsseSignatureSchema, { minItems: 1, maxItems: 16 }),
  },
  { additionalProperties: false },
);
export type DsseEnvelope = Static<typeof DsseEnvelopeSchema>;
