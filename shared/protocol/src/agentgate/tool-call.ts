/**
 * `POST /api/v1/agentgate/propose` body: one tool call an agent wants to make. Every field the pentagon
 * reads is here; nothing is inferred from headers. Bounds keep a single call cheap to evaluate.
 */
import { type Static, Type } from '@sinclair/typebox';
import { IdentifierSchema, JsonObjectSchema, NameSchema } from '../schemas/primitives.js';
import { DsseEnvelopeSchema } from '../schemas/dsse.js';

/** Longest trigger prompt accepted (characters); longer prompts are refused, not truncated. */
export const MAX_TRIGGER_PROMPT_LENGTH = 65_536;
/** Most custody attestations on one call. */
export const MAX_PROVENANCE_ENVELOPES = 32;
/** Largest spend on one call (a guard against float overflow, not a business limit). */
export const MAX_SPEND_AMOUNT = 1e15;

/** A tool name: `payments.transfer`, `fs/write`, `crm:update` — letters, digits and `._:/-`. */
export const ToolNameSchema = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._:/-]*$',
});

/** A region code as the tenant's policy names them (`EU`, `US-CA`, `eu-west-1`). */
export const RegionSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
});

export const SpendAmountSchema = Type.Number({ minimum: 0, maximum: MAX_SPEND_AMOUNT });

export const ToolCallSchema = Type.Object(
  {
    lobe_name: IdentifierSchema,
    tool_name: ToolNameSchema,
    /** The tool's arguments; every string inside is scanned for prompt injection. */
    arguments: JsonObjectSchema,
    /** The prompt (user message, retrieved document, upstream output) that led the agent to this call. */
    trigger_prompt: Type.Optional(Type.String({ maxLength: MAX_TRIGGER_PROMPT_LENGTH })),
    /** Model that produced the call; committed to in tier1 `zkInference`. */
    model_id: Type.Optional(NameSchema),
    /** Money (in the budget's unit) this call will spend; reserved against the lobe's budget. */
    spend_amount: Type.Optional(SpendAmountSchema),
    region: Type.Optional(RegionSchema),
    department: Type.Optional(NameSchema),
    /** How deep in a chain of agent-to-agent or tool-to-tool calls this call sits (0 = top level). */
    call_depth: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
    /** DSSE custody attestations (payloadType `application/vnd.pentagate.custody+json`) for data arguments. */
    data_provenance: Type.Optional(Type.Array(DsseEnvelopeSchema, { maxItems: MAX_PROVENANCE_ENVELOPES })),
    /** Anything else the agent wants on the record; committed to, not interpreted. */
    context: Type.Optional(JsonObjectSchema),
  },
  { additionalProperties: false },
);
export type ToolCall = Static<typeof ToolCallSchema>;
