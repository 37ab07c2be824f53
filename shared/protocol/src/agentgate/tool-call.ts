/**
 * `POST /api/v1/agentgate/propose` body (specification §2.3): `{ lobe_name, spend_amount, tool_call: { id,
 * tool_name, arguments, agent_confidence, trigger_prompt } }`, every one of them required. Fields beyond the
 * specification are optional and sit beside its fields, never in their place. Bounds keep one call cheap
 * to evaluate.
 */
import { type Static, Type } from '@sinclair/typebox';
import { DsseEnvelopeSchema } from '../schemas/dsse.js';
import { IdentifierSchema, JsonObjectSchema, NameSchema } from '../schemas/primitives.js';

/** Longest trigger prompt accepted (characters); longer prompts are refused, not truncated. */
export const MAX_TRIGGER_PROMPT_LENGTH = 65_536;
/** Most custody attestations on one call. */
export const MAX_PROVENANCE_ENVELOPES = 32;
/** Largest spend on one call (a guard against float overflow, not a business limit). */
export const MAX_SPEND_AMOUNT = 1e15;
/** Longest caller-chosen tool call id. */
export const MAX_TOOL_CALL_ID_LENGTH = 256;

/**
 * A tool name: `payments.transfer`, `fs/write`, `crm:update`, `_internal_search` — letters, digits and
 * `._:/-`, starting with a letter, a digit or `_` (function-calling APIs and MCP allow a leading `_`). Its `/` segments
 * are neither empty nor `.` or `..`, and it does not end in `/`: a tool router that reads the name as a path
 * (`server/tool`, an HTTP route) would resolve `os.exec/../os.exec` or `os.exec/` to `os.exec`, a name the
 * policy's globs never saw.
 */
export const ToolNameSchema = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^(?!.*//)(?!.*/$)(?!(?:.*/)?\\.\\.?(?:/|$))[A-Za-z0-9_][A-Za-z0-9._:/-]*$',
});

/** A region code as the tenant's policy names them (`EU`, `US-CA`, `eu-west-1`). */
export const RegionSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
});

export const SpendAmountSchema = Type.Number({ minimum: 0, maximum: MAX_SPEND_AMOUNT });

/** The agent's confidence, a fraction 0..1; below the server's threshold a human decides. */
export const ConfidenceSchema = Type.Number({ minimum: 0, maximum: 1 });

export const TriggerPromptSchema = Type.String({ maxLength: MAX_TRIGGER_PROMPT_LENGTH });

/** The call the agent wants to make (`tool_call`). */
export const ToolCallSchema = Type.Object(
  {
    /** Chosen by the caller; the same id from the same lobe always gets the same verdict. */
    id: Type.String({
      minLength: 1,
      maxLength: MAX_TOOL_CALL_ID_LENGTH,
      pattern: '^[^\\u0000-\\u001f\\u007f]+$',
    }),
    tool_name: ToolNameSchema,
    /** The tool's arguments; every string inside is scanned for prompt injection. */
    arguments: JsonObjectSchema,
    agent_confidence: ConfidenceSchema,
    /** The prompt (user message, retrieved document, upstream output) that led the agent to this call. */
    trigger_prompt: TriggerPromptSchema,
    /** Extra: how deep in a chain of agent-to-agent or tool-to-tool calls this call sits (0 = top level). */
    call_depth: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
    /** Extra: DSSE custody attestations (`application/vnd.pentagate.custody+json`) for data arguments. */
    data_provenance: Type.Optional(Type.Array(DsseEnvelopeSchema, { maxItems: MAX_PROVENANCE_ENVELOPES })),
    /** Extra: anything else the agent wants on the record; committed to, not interpreted. */
    context: Type.Optional(JsonObjectSchema),
  },
  { additionalProperties: false },
);
export type ToolCall = Static<typeof ToolCallSchema>;

export const ProposeRequestSchema = Type.Object(
  {
    /** The lobe returned by registration. */
    lobe_name: IdentifierSchema,
    /** Money (in the budget's unit) the call will spend; reserved against the lobe's budget. */
    spend_amount: SpendAmountSchema,
    tool_call: ToolCallSchema,
    /**
     * Extras: the region and department the caller claims. Jurisdiction uses what the tenant's
     * administrator bound to the API key; a claim that differs from that binding is refused.
     */
    region: Type.Optional(RegionSchema),
    department: Type.Optional(NameSchema),
  },
  { additionalProperties: false },
);
export type ProposeRequest = Static<typeof ProposeRequestSchema>;
