/**
 * The shapes of a 403 from `POST /api/v1/selfcorrect`. Specification §4 rule 5 makes 403 the veto status,
 * so a client reads every 403 there as a GovernanceBrief (§2.5: type, summary, violations, remediation).
 * Two bodies answer it: the veto of a decision (with `decision_id` and `violation_details`), and a refusal
 * made before any decision (a key of another scope, a key bound to another agent: app/veto-brief-errors.ts),
 * which has no decision to name and carries the error body beside the brief. Both documents that describe
 * the route — the schema route and /openapi.json — serve this union, so a body validated against either fits.
 */
import { SelfCorrectVetoSchema } from '@pentagate/protocol';
import { Type } from '@sinclair/typebox';
import { ErrorResponseSchema } from './error-responses.js';

/** A refusal before any decision: the brief's four specified fields and the error body. */
export const SelfCorrectRefusalSchema = Type.Composite(
  [Type.Pick(SelfCorrectVetoSchema, ['type', 'summary', 'violations', 'remediation']), ErrorResponseSchema],
  {
    additionalProperties: false,
    description: 'a refusal before any decision: the brief with its error body',
  },
);

/** Every 403 body of the route. */
export const SelfCorrectForbiddenSchema = Type.Union([SelfCorrectVetoSchema, SelfCorrectRefusalSchema], {
  description: 'the veto brief of a decision, or the brief of a refusal with its error body',
});
