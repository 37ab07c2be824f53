/**
 * The decision proof: an in-toto Statement v1 (github.com/in-toto/attestation, spec/v1/statement.md)
 * carried in a DSSE envelope with payloadType `PAYLOAD_TYPES.inToto` and signed by a `proof` key
 * (ARCHITECTURE.md §5). The one subject is the action request, named by SHA-256(JCS(action request)).
 */
import { type Static, Type } from '@sinclair/typebox';
import { AuthorizationStatusSchema } from './authorization-status.js';
import { LogOriginSchema } from './checkpoint.js';
import {
  CountSchema,
  IdentifierSchema,
  IsoTimestampSchema,
  JsonObjectSchema,
  NameSchema,
  Sha256HexSchema,
} from './primitives.js';

export const IN_TOTO_STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const DECISION_PREDICATE_TYPE = 'https://pentagate.dev/attestation/decision/v1';

/** The status at decision time, or the human outcome that later settled a REQUIRE_HUMAN / HELD_FOR_VETO. */
export const DecisionOutcomeSchema = Type.Union([
  AuthorizationStatusSchema,
  Type.Literal('APPROVED'),
  Type.Literal('VETOED'),
]);
export type DecisionOutcome = Static<typeof DecisionOutcomeSchema>;

export const DecisionPredicateSchema = Type.Object(
  {
    decisionId: IdentifierSchema,
    outcome: DecisionOutcomeSchema,
    tenantId: IdentifierSchema,
    agentId: IdentifierSchema,
    /** The policy the decision was made under: its id and the SHA-256 of its JCS form. */
    policy: Type.Object({ id: IdentifierSchema, digest: Sha256HexSchema }, { additionalProperties: false }),
    /** The results of tier1..tier3 (zkInference, jurisdiction, proofFirewall, arbitration, economic, simulation). */
    tiers: JsonObjectSchema,
    /** Budget reserved for the action, in the tenant's budget units (e.g. USD cents); >= 0. */
    reservedBudget: Type.Number({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    issuedAt: IsoTimestampSchema,
    expiresAt: IsoTimestampSchema,
    /** Where the decision was logged: the log origin and the entry index. */
    auditLog: Type.Object({ origin: LogOriginSchema, index: CountSchema }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export type DecisionPredicate = Static<typeof DecisionPredicateSchema>;

export const DecisionSubjectSchema = Type.Object(
  {
    name: NameSchema,
    digest: Type.Object({ sha256: Sha256HexSchema }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const DecisionStatementSchema = Type.Object(
  {
    _type: Type.Literal(IN_TOTO_STATEMENT_TYPE),
    /** Exactly one subject: the action request. */
    subject: Type.Array(DecisionSubjectSchema, { minItems: 1, maxItems: 1 }),
    predicateType: Type.Literal(DECISION_PREDICATE_TYPE),
    predicate: DecisionPredicateSchema,
  },
  { additionalProperties: false },
);
export type DecisionStatement = Static<typeof DecisionStatementSchema>;
