/**
 * `POST /api/v1/selfcorrect`: an agent asks "may I do this?" and, on a veto, gets remediation it can apply
 * before trying again. 200 → SelfCorrectCleared, 403 → SelfCorrectVeto. An unknown `agent_id` is
 * registered on first contact (domain defaults to GENERAL).
 */
import { type Static, Type } from '@sinclair/typebox';
import { IdentifierSchema, JsonObjectSchema, NameSchema, textSchema } from '../schemas/primitives.js';
import { AgentDomainSchema } from './domains.js';
import { MAX_TRIGGER_PROMPT_LENGTH, RegionSchema, SpendAmountSchema, ToolNameSchema } from './tool-call.js';
import { ViolationSchema } from '../schemas/kernel.js';

export const SelfCorrectActionSchema = Type.Object(
  {
    tool_name: ToolNameSchema,
    arguments: JsonObjectSchema,
    spend_amount: Type.Optional(SpendAmountSchema),
    trigger_prompt: Type.Optional(Type.String({ maxLength: MAX_TRIGGER_PROMPT_LENGTH })),
    region: Type.Optional(RegionSchema),
    department: Type.Optional(NameSchema),
  },
  { additionalProperties: false },
);
export type SelfCorrectAction = Static<typeof SelfCorrectActionSchema>;

export const SelfCorrectRequestSchema = Type.Object(
  {
    agent_id: IdentifierSchema,
    action: SelfCorrectActionSchema,
    domain: Type.Optional(AgentDomainSchema),
    lobe_name: Type.Optional(IdentifierSchema),
  },
  { additionalProperties: false },
);
export type SelfCorrectRequest = Static<typeof SelfCorrectRequestSchema>;

export const SelfCorrectClearedSchema = Type.Object(
  {
    type: Type.Literal('SERVICE_GOVERNANCE_CLEARED'),
    governance_token: Type.String({ minLength: 1, maxLength: 16_384 }),
    summary: textSchema(),
  },
  { additionalProperties: false },
);
export type SelfCorrectCleared = Static<typeof SelfCorrectClearedSchema>;

export const SelfCorrectVetoSchema = Type.Object(
  {
    type: Type.Literal('SERVICE_GOVERNANCE_VETO'),
    summary: textSchema(),
    violations: Type.Array(ViolationSchema),
    /** One concrete step per failed rule, e.g. "lower spend_amount to 500 or less, or ask for approval". */
    remediation: Type.Array(textSchema()),
  },
  { additionalProperties: false },
);
export type SelfCorrectVeto = Static<typeof SelfCorrectVetoSchema>;
