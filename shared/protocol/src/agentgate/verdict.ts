/**
 * `POST /api/v1/agentgate/propose` response (specification §2.4): `{ approved, governance_token, reason,
 * tiers, violations }`. `violations` is an array of strings, each starting with its stable code
 * (`ECONOMY.BUDGET_EXCEEDED: …`); the structured form sits beside it in `violation_details`.
 */
import { type Static, Type } from '@sinclair/typebox';
import { IdentifierSchema, textSchema } from '../schemas/primitives.js';
import { ViolationSchema } from '../schemas/kernel.js';
import { VerdictTiersSchema } from './verdict-tiers.js';

/** `<CODE>: <readable detail>`; the code is the text before the first colon. */
export const ViolationTextSchema = textSchema();

export const GovernanceVerdictSchema = Type.Object(
  {
    approved: Type.Boolean(),
    /** Present only when approved: `pgt1.<kid>.<payload>.<sig>`, verifiable offline. */
    governance_token: Type.Optional(Type.String({ minLength: 1, maxLength: 16_384 })),
    reason: textSchema(),
    tiers: VerdictTiersSchema,
    /** Empty when approved. */
    violations: Type.Array(ViolationTextSchema),
    /** Extra: the same violations as `{ code, vertex, message }`, in the same order. */
    violation_details: Type.Array(ViolationSchema),
    /** Extra: the decision's id (its proof packet is at `/api/v1/proofs/{decision_id}`). */
    decision_id: IdentifierSchema,
    /** Extra: set while the call waits in the approvals queue (REQUIRE_HUMAN or HELD_FOR_VETO). */
    approval_id: Type.Optional(IdentifierSchema),
  },
  { additionalProperties: false },
);
export type GovernanceVerdict = Static<typeof GovernanceVerdictSchema>;
