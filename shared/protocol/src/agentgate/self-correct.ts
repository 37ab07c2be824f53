/**
 * `POST /api/v1/selfcorrect` (specification §2.5): one action per request, `{ action: { agent_id,
 * intent_domain, tool_name, tool_args, confidence } }`. 200 → SelfCorrectCleared, 403 → SelfCorrectVeto
 * (the GovernanceBrief). An unknown `agent_id` is registered on first contact under `intent_domain`. Each
 * request is a governed decision like a propose: budget, audit entry and, when cleared, a governance token.
 */
import { type Static, Type } from '@sinclair/typebox';
import { AgentReferenceSchema, IdentifierSchema, NameSchema, textSchema } from '../schemas/primitives.js';
import { JsonObjectSchema } from '../schemas/primitives.js';
import { ViolationSchema } from '../schemas/kernel.js';
import { AgentDomainSchema } from './domains.js';
import {
  ConfidenceSchema,
  RegionSchema,
  SpendAmountSchema,
  ToolNameSchema,
  TriggerPromptSchema,
} from './tool-call.js';
import { ViolationTextSchema } from './verdict.js';
import { JurisdictionTierSchema } from './verdict-tiers.js';

export const SelfCorrectActionSchema = Type.Object(
  {
    /** Any printable name, or a registered agent's id (AgentReferenceSchema). */
    agent_id: AgentReferenceSchema,
    intent_domain: AgentDomainSchema,
    tool_name: ToolNameSchema,
    tool_args: JsonObjectSchema,
    confidence: ConfidenceSchema,
    /** Extra: money the action will spend (default 0), reserved against the agent's budget. */
    spend_amount: Type.Optional(SpendAmountSchema),
    /** Extra: the prompt that led to the action; screened for injection. */
    trigger_prompt: Type.Optional(TriggerPromptSchema),
    /** Extras: claimed region and department; must match what the administrator bound to the key. */
    region: Type.Optional(RegionSchema),
    department: Type.Optional(NameSchema),
  },
  { additionalProperties: false },
);
export type SelfCorrectAction = Static<typeof SelfCorrectActionSchema>;

export const SelfCorrectRequestSchema = Type.Object(
  { action: SelfCorrectActionSchema },
  { additionalProperties: false },
);
export type SelfCorrectRequest = Static<typeof SelfCorrectRequestSchema>;

export const SelfCorrectClearedSchema = Type.Object(
  {
    type: Type.Literal('SERVICE_GOVERNANCE_CLEARED'),
    governance_token: Type.String({ minLength: 1, maxLength: 16_384 }),
    summary: textSchema(),
    /** Extra: the decision's id (proof packet at `/api/v1/proofs/{decision_id}`). */
    decision_id: IdentifierSchema,
  },
  { additionalProperties: false },
);
export type SelfCorrectCleared = Static<typeof SelfCorrectClearedSchema>;

export const SelfCorrectVetoSchema = Type.Object(
  {
    type: Type.Literal('SERVICE_GOVERNANCE_VETO'),
    summary: textSchema(),
    /** Each string starts with its stable code. */
    violations: Type.Array(ViolationTextSchema),
    /** What to change before trying again: one step per failed rule, joined with "; ". */
    remediation: textSchema(),
    /** Extra: the same violations as `{ code, vertex, message }`. */
    violation_details: Type.Array(ViolationSchema),
    /** Extra: the decision's id. */
    decision_id: IdentifierSchema,
    /** Extra: set when the action waits in the approvals queue. */
    approval_id: Type.Optional(IdentifierSchema),
    /**
     * Extra: the compliance-oriented defence brief of a jurisdiction veto (specification §1.11) — which rule,
     * which legal or internal authority it implements, what the call did — as propose carries it in
     * `tiers.tier1.jurisdiction.defenceBrief`.
     */
    defence_brief: Type.Optional(JurisdictionTierSchema.properties.defenceBrief),
  },
  { additionalProperties: false },
);
export type SelfCorrectVeto = Static<typeof SelfCorrectVetoSchema>;
