/**
 * A proof packet: everything an auditor needs to check one decision offline — the signed statement, the
 * audit entry that logged it, the entry's inclusion proof and the signed checkpoint the proof leads to.
 * The entry's `subjectDigest` is `envelopeDigest(envelope)` (@pentagate/crypto).
 */
import { type Static, Type } from '@sinclair/typebox';
import { AuditEntrySchema } from './audit.js';
import { DsseEnvelopeSchema } from './dsse.js';
import { InclusionProofSchema } from './merkle-proof.js';

/** A C2SP signed note is a few lines; 16 KiB leaves room for many cosignatures. */
export const MAX_SIGNED_NOTE_CHARS = 16 * 1024;

export const SignedNoteSchema = Type.String({ minLength: 1, maxLength: MAX_SIGNED_NOTE_CHARS });

export const ProofPacketSchema = Type.Object(
  {
    v: Type.Literal(1),
    envelope: DsseEnvelopeSchema,
    auditEntry: Type.Optional(AuditEntrySchema),
    inclusion: Type.Optional(InclusionProofSchema),
    /** The signed checkpoint (C2SP signed-note text) whose root the inclusion proof reaches. */
    checkpoint: Type.Optional(SignedNoteSchema),
  },
  { additionalProperties: false },
);
export type ProofPacket = Static<typeof ProofPacketSchema>;
