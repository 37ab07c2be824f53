/** `POST /api/v1/agentgate/propose` response: the governance verdict on one tool call. */
import { type Static, Type } from '@sinclair/typebox';
import { textSchema } from '../schemas/primitives.js';
import { ViolationSchema } from '../schemas/kernel.js';
import { VerdictTiersSchema } from './verdict-tiers.js';

export const GovernanceVerdictSchema = Type.Object(
  {
    approved: Type.Boolean(),
    /** Present only when approved: `pgt1.<kid>.<payload>.<sig>`, verifiable offline. */
    governance_token: Type.Optional(Type.String({ minLength: 1, maxLength: 16_384 })),
    reason: textSchema(),
    tiers: VerdictTiersSchema,
    violations: Type.Array(ViolationSchema),
  },
  { additionalProperties: false },
);
export type GovernanceVerdict = Static<typeof GovernanceVerdictSchema>;
