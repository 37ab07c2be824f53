/**
 * The fleet link's wire contract: the records of an edge's hash-chained audit outbox as the edge ships them
 * to the cloud, and the cloud's acknowledgement. A record's digest is SHA-256 of its RFC 8785 JCS bytes —
 * the same bytes the edge wrote as one outbox line — and each record names the digest of the one before it,
 * so the cloud can check the chain per robot without trusting the order batches arrive in.
 */
import { type Static, Type } from '@sinclair/typebox';
import { CountSchema, RobotIdSchema, Sha256HexSchema, UnixMsSchema } from '../schemas/primitives.js';
import { VerdictEventSchema } from '../robot/verdict.js';

/** One outbox line (edge/src/outbox/outbox-record.ts writes exactly this shape). */
export const EdgeAuditRecordSchema = Type.Object(
  {
    v: Type.Literal(1),
    /** 0-based position in the robot's outbox. */
    index: CountSchema,
    appendedAtMs: UnixMsSchema,
    /** SHA-256 (hex) of the previous record's JCS bytes; SHA-256 of nothing for index 0. */
    prevDigest: Sha256HexSchema,
    evidenceDigest: Type.Optional(Sha256HexSchema),
    verdict: VerdictEventSchema,
  },
  { additionalProperties: false },
);
export type EdgeAuditRecord = Static<typeof EdgeAuditRecordSchema>;

/** Most records in one upload. */
export const MAX_EDGE_BATCH_RECORDS = 500;

export const EdgeRecordBatchSchema = Type.Object(
  { records: Type.Array(EdgeAuditRecordSchema, { minItems: 1, maxItems: MAX_EDGE_BATCH_RECORDS }) },
  { additionalProperties: false },
);
export type EdgeRecordBatch = Static<typeof EdgeRecordBatchSchema>;

/**
 * What the cloud holds of a robot's chain: records 0..acknowledged-1 are stored, the last one has digest
 * `headDigest` (SHA-256 of nothing when none is stored). The edge resumes shipping at `acknowledged`.
 */
export const EdgeChainAckSchema = Type.Object(
  {
    robotId: RobotIdSchema,
    acknowledged: CountSchema,
    headDigest: Sha256HexSchema,
    /** Records of this upload stored now. */
    stored: Type.Optional(CountSchema),
    /** Records of this upload already stored with the same digest (a replay or a resend). */
    duplicates: Type.Optional(CountSchema),
  },
  { additionalProperties: false },
);
export type EdgeChainAck = Static<typeof EdgeChainAckSchema>;
