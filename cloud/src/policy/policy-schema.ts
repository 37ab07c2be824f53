/**
 * The tenant policy document (YAML on disk, identified by the SHA-256 of its JCS form). Every rule has an
 * `id` so that verdicts, defence briefs and remediation can name the rule that decided. The documented
 * example is `cloud/policies/example.yaml`; defaults are listed in `POLICY_DEFAULTS`.
 */
import { IdentifierSchema, NameSchema, textSchema } from '@pentagate/protocol';
import { type Static, Type } from '@sinclair/typebox';

/** A glob over tool names (`payments.*`, `*`): `*` matches any run of characters; case-insensitive. */
const ToolGlob = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:/*?-]+$' });
const ToolGlobs = Type.Array(ToolGlob, { minItems: 1, maxItems: 256 });
const Reason = textSchema(512);

export const BudgetRuleSchema = Type.Object(
  {
    id: IdentifierSchema,
    /** Glob over lobe names; exactly one of `lobe` and `agent`. */
    lobe: Type.Optional(ToolGlob),
    /** Glob over agent ids; an agent rule wins over a lobe rule. */
    agent: Type.Optional(ToolGlob),
    /** Spend allowed per window, in `unit`. */
    amount: Type.Number({ minimum: 0, maximum: 1e15 }),
    windowMs: Type.Integer({ minimum: 1000, maximum: 366 * 24 * 3_600_000 }),
    /** Share of `amount` held back and never spendable by the agent (0..99). */
    reservePercent: Type.Optional(Type.Number({ minimum: 0, maximum: 99 })),
    unit: Type.Optional(NameSchema),
  },
  { additionalProperties: false },
);
export type BudgetRule = Static<typeof BudgetRuleSchema>;

const ToolRule = {
  id: IdentifierSchema,
  tools: ToolGlobs,
  reason: Reason,
};

export const DeniedToolRuleSchema = Type.Object(ToolRule, { additionalProperties: false });
export const ConsentToolRuleSchema = Type.Object(
  {
    ...ToolRule,
    /** Only calls spending at least this much need consent (absent: every call). */
    minSpend: Type.Optional(Type.Number({ minimum: 0, maximum: 1e15 })),
  },
  { additionalProperties: false },
);
export const HoldToolRuleSchema = Type.Object(
  { ...ToolRule, holdMs: Type.Integer({ minimum: 1, maximum: 30 * 24 * 3_600_000 }) },
  { additionalProperties: false },
);
/**
 * ECONOMY: the top-level argument that carries what a tool spends (`amount` of `payments.transfer`). The call
 * spends at least its value, whatever `spend_amount` declares; missing or not a number >= 0 refuses the call.
 */
export const SpendArgumentRuleSchema = Type.Object(
  { ...ToolRule, argument: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);
/**
 * RISK: tools that run a string argument as SQL. A statement that destroys a table (`DROP TABLE`, `TRUNCATE`,
 * `DELETE` without `WHERE`) in one is refused; a migration tool that must drop tables is left out of the list.
 */
export const SqlToolRuleSchema = Type.Object(ToolRule, { additionalProperties: false });
export const ProtectedResourceRuleSchema = Type.Object(
  {
    id: IdentifierSchema,
    /** Glob over string argument values: `**` crosses `/`, `*` does not; case-insensitive. */
    pattern: Type.String({ minLength: 1, maxLength: 256 }),
    /** Tools the protection applies to (absent: all tools). */
    tools: Type.Optional(ToolGlobs),
    reason: Reason,
  },
  { additionalProperties: false },
);
export const ProvenanceRuleSchema = Type.Object(
  {
    ...ToolRule,
    /** Top-level argument names whose JCS digest must match a verified custody attestation. */
    arguments: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: 32 }),
  },
  { additionalProperties: false },
);

export const JurisdictionRuleSchema = Type.Object(
  {
    id: IdentifierSchema,
    /**
     * region: the call's `region` must be in `allow`; department: the call's `department`;
     * data-residency: the value of argument `argument` (a destination) must be in `allow`.
     * A rule that applies but finds no value refuses the call (fail closed).
     */
    kind: Type.Union([Type.Literal('region'), Type.Literal('department'), Type.Literal('data-residency')]),
    tools: Type.Optional(ToolGlobs),
    allow: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: 256 }),
    argument: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    /** The authority the rule implements, quoted in the defence brief (e.g. "GDPR Art. 44"). */
    citation: textSchema(256),
    rationale: Type.Optional(Reason),
  },
  { additionalProperties: false },
);
export type JurisdictionRule = Static<typeof JurisdictionRuleSchema>;

export const InjectionSettingsSchema = Type.Object(
  {
    /** Field score at or above which a call is refused (0..1; default 0.5). */
    threshold: Type.Optional(Type.Number({ minimum: 0.05, maximum: 1 })),
    /**
     * Tenant phrases matched literally (case-insensitive, after the same normalisation as the built-in
     * rules). Literal on purpose: a tenant-supplied regular expression could hang the gate (ReDoS).
     */
    extraPatterns: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: IdentifierSchema,
            phrase: Type.String({ minLength: 3, maxLength: 200 }),
            weight: Type.Number({ minimum: 0, maximum: 1 }),
          },
          { additionalProperties: false },
        ),
        { maxItems: 256 },
      ),
    ),
    /**
     * The classifier stage, run when the rules let a call through: a linear model scoring every string
     * window by window. `threshold` is the probability at or above which a call is refused (default: the
     * threshold shipped with the model, chosen for about 1.5 % false positives on unseen phrasing).
     */
    classifier: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean()),
          threshold: Type.Optional(Type.Number({ minimum: 0.05, maximum: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const MetabolicSettingsSchema = Type.Object(
  {
    /** Window in which repeated calls are counted (default 60 000 ms). */
    repeatWindowMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 24 * 3_600_000 })),
    /** Most identical calls allowed in the window, this one included (default 3). */
    maxIdentical: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
    /** Most near-identical calls allowed in the window, this one included (default 6). */
    maxNearIdentical: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
    /** Deepest call chain allowed (default 8). */
    maxCallDepth: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
    probing: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean()),
          /** Distinct denied variants of one tool after which further variants are refused (default 3). */
          maxDeniedVariants: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
          windowMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 7 * 24 * 3_600_000 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const PolicyDocumentSchema = Type.Object(
  {
    version: Type.Literal(1),
    id: IdentifierSchema,
    description: Type.Optional(textSchema()),
    budgets: Type.Optional(Type.Array(BudgetRuleSchema, { maxItems: 1024 })),
    tools: Type.Optional(
      Type.Object(
        {
          denied: Type.Optional(Type.Array(DeniedToolRuleSchema, { maxItems: 1024 })),
          consentRequired: Type.Optional(Type.Array(ConsentToolRuleSchema, { maxItems: 1024 })),
          holdForVeto: Type.Optional(Type.Array(HoldToolRuleSchema, { maxItems: 1024 })),
          protectedResources: Type.Optional(Type.Array(ProtectedResourceRuleSchema, { maxItems: 1024 })),
          provenanceRequired: Type.Optional(Type.Array(ProvenanceRuleSchema, { maxItems: 1024 })),
          spendArguments: Type.Optional(Type.Array(SpendArgumentRuleSchema, { maxItems: 1024 })),
          sqlTools: Type.Optional(Type.Array(SqlToolRuleSchema, { maxItems: 1024 })),
        },
        { additionalProperties: false },
      ),
    ),
    jurisdictions: Type.Optional(Type.Array(JurisdictionRuleSchema, { maxItems: 1024 })),
    injection: Type.Optional(InjectionSettingsSchema),
    metabolic: Type.Optional(MetabolicSettingsSchema),
  },
  { additionalProperties: false },
);
export type PolicyDocument = Static<typeof PolicyDocumentSchema>;

/** Values used when the policy leaves a setting out. */
export const POLICY_DEFAULTS = {
  injectionThreshold: 0.5,
  repeatWindowMs: 60_000,
  maxIdentical: 3,
  maxNearIdentical: 6,
  maxCallDepth: 8,
  probingEnabled: true,
  maxDeniedVariants: 3,
  probingWindowMs: 600_000,
} as const;
