/**
 * The kernel wire types used by the client library (GovClient) and the `/api/v1/kernel/…` routes:
 * an agent proposes an action, gets a decision, executes an allowed one and can replay a decision
 * against the current policy to see whether it would come out the same.
 */
import { type Static, Type } from '@sinclair/typebox';
import { ActionTypeSchema } from './action-type.js';
import { AuthorizationStatusSchema } from './authorization-status.js';
import {
  CountSchema,
  AgentReferenceSchema,
  IdentifierSchema,
  IsoTimestampSchema,
  JsonObjectSchema,
  Sha256HexSchema,
  textSchema,
} from './primitives.js';
import { ProofPacketSchema } from './proof.js';

/** The five vertices of the pentagon (ARCHITECTURE.md §3). */
export const VERTICES = ['INVARIANT', 'ECONOMY', 'RISK', 'PROVENANCE', 'CONSENT'] as const;
export const VertexSchema = Type.Union(VERTICES.map((v) => Type.Literal(v)));
export type Vertex = Static<typeof VertexSchema>;

export const ViolationSchema = Type.Object(
  {
    /** Stable code `<VERTEX>.<REASON>`, e.g. `RISK.PROMPT_INJECTION`; never changes meaning once published. */
    code: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Z][A-Z0-9_]*(?:\\.[A-Z][A-Z0-9_]*)+$' }),
    vertex: VertexSchema,
    /** Readable detail with the measured values (`human at 0.62 m < radius 1.20 m`). */
    message: textSchema(),
  },
  { additionalProperties: false },
);
export type Violation = Static<typeof ViolationSchema>;

export const ProposedActionContextSchema = Type.Object(
  {
    /** The agent's name, or the id its registration returned (schemas/primitives.ts AgentReferenceSchema). */
    agentId: AgentReferenceSchema,
    /** The agent's own confidence in the action, 0..1; below the kernel's threshold a human decides. */
    confidenceScore: Type.Number({ minimum: 0, maximum: 1 }),
    sessionId: Type.Optional(IdentifierSchema),
    /** Why the agent wants this (shown to the approving human; screened for injection like any input). */
    reason: Type.Optional(textSchema()),
  },
  { additionalProperties: false },
);

export const ProposedActionSchema = Type.Object(
  {
    type: ActionTypeSchema,
    /** The action's arguments; their shape depends on the action type and the tool. */
    payload: JsonObjectSchema,
    context: ProposedActionContextSchema,
    /** Same key, same tenant → the same decision is returned instead of a second one. */
    idempotencyKey: Type.Optional(IdentifierSchema),
  },
  { additionalProperties: false },
);
export type ProposedAction = Static<typeof ProposedActionSchema>;

export const AuthorizationDecisionSchema = Type.Object(
  {
    proposalId: IdentifierSchema,
    status: AuthorizationStatusSchema,
    /** Every rule that failed; empty for ALLOW. */
    violations: Type.Array(ViolationSchema, { maxItems: 64 }),
    /** What the agent could change to be allowed. */
    remediation: Type.Optional(textSchema()),
    proof: Type.Optional(ProofPacketSchema),
    /** For HELD_FOR_VETO: the action executes after this instant unless vetoed. */
    holdUntil: Type.Optional(IsoTimestampSchema),
    /** The decision cannot be executed after this instant. */
    expiresAt: IsoTimestampSchema,
    /** SHA-256 of the JCS policy the decision was made under. */
    policyDigest: Sha256HexSchema,
  },
  { additionalProperties: false },
);
export type AuthorizationDecision = Static<typeof AuthorizationDecisionSchema>;

export const ExecutionResultSchema = Type.Object(
  {
    /** Identifies this execution (recorded in its `execution` audit entry). */
    executionId: IdentifierSchema,
    proposalId: IdentifierSchema,
    executed: Type.Literal(true),
    executedAt: IsoTimestampSchema,
    /** Index of the `execution` entry in the audit log. */
    auditIndex: CountSchema,
    proof: Type.Optional(ProofPacketSchema),
    /** A REQUIRE_HUMAN's: the proof packet of the operator's signed approval (outcome APPROVED). */
    approvalProof: Type.Optional(ProofPacketSchema),
  },
  { additionalProperties: false },
);
export type ExecutionResult = Static<typeof ExecutionResultSchema>;

export const ReplayDifferenceSchema = Type.Object(
  {
    /** JSON Pointer (RFC 6901) into the decision, e.g. `/status` or `/violations/0/code`. */
    path: Type.String({ maxLength: 1024, pattern: '^(?:/[^/]*)*$' }),
    /** The value in the original decision; absent when the member is new. */
    original: Type.Optional(Type.Unknown()),
    /** The value in the replayed decision; absent when the member disappeared. */
    replayed: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
export type ReplayDifference = Static<typeof ReplayDifferenceSchema>;

export const ReplayResultSchema = Type.Object(
  {
    proposalId: IdentifierSchema,
    original: AuthorizationDecisionSchema,
    replayed: AuthorizationDecisionSchema,
    /** True when `differences` is empty. */
    identical: Type.Boolean(),
    differences: Type.Array(ReplayDifferenceSchema, { maxItems: 1024 }),
  },
  { additionalProperties: false },
);
export type ReplayResult = Static<typeof ReplayResultSchema>;
