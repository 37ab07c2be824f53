/**
 * One entry of the append-only audit log (ARCHITECTURE.md §5). The RFC 6962 Merkle leaf is
 * `canonicalBytes(entry)`, so every member, including `index`, is covered by the log's checkpoints.
 */
import { type Static, Type } from '@sinclair/typebox';
import {
  CountSchema,
  IdentifierSchema,
  IsoTimestampSchema,
  JsonObjectSchema,
  Sha256HexSchema,
} from './primitives.js';

/**
 * The entry types the cloud writes today: `agent.registered`, `decision`, `execution`, `approval`, `veto`,
 * `key`, `policy`, `edge.verdict`, `refusal`. The schema accepts any dotted lower-case name so a new event
 * does not break old verifiers; a verifier checks the `data` of the types it knows.
 */
export const AuditEntryTypeSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[a-z][a-z0-9]*(?:[._-][a-z0-9]+)*$',
});

export const AuditEntrySchema = Type.Object(
  {
    v: Type.Literal(1),
    /** Position in the log, from 0; equal to the Merkle leaf index. */
    index: CountSchema,
    type: AuditEntryTypeSchema,
    /** When the entry was appended. */
    at: IsoTimestampSchema,
    tenantId: Type.Optional(IdentifierSchema),
    /** Who caused it: an agent id, operator id, `edge:<robotId>` or `system`. */
    actor: Type.Optional(IdentifierSchema),
    /** Digest of what the entry is about (for a decision: `envelopeDigest` of its proof envelope). */
    subjectDigest: Type.Optional(Sha256HexSchema),
    data: JsonObjectSchema,
  },
  { additionalProperties: false },
);
export type AuditEntry = Static<typeof AuditEntrySchema>;
