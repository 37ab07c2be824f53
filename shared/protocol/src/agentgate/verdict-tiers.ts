/**
 * The six tier objects of a governance verdict (ARCHITECTURE.md §5). Each is documented field by field because
 * agents read them to correct themselves and auditors read them in proof packets.
 */
import { type Static, Type } from '@sinclair/typebox';
import { NameSchema, Sha256HexSchema, textSchema } from '../schemas/primitives.js';
import { AuthorizationStatusSchema } from '../schemas/authorization-status.js';

const Amount = Type.Number({ description: 'in the unit of the budget (e.g. USD)' });
const Excerpt = Type.String({ maxLength: 200 });

/**
 * tier1 `zkInference`: a SHA-256 commitment binding the model id, the trigger prompt and the arguments.
 * Despite the historical name it is NOT a zero-knowledge proof and proves nothing about how the model
 * reasoned: it is a binding (not hiding) hash that lets anyone holding the prompt and arguments show later
 * that these exact inputs were the ones governed.
 */
export const ZkInferenceTierSchema = Type.Object({
  passed: Type.Boolean(),
  scheme: Type.Literal('sha256-commitment'),
  zeroKnowledge: Type.Literal(false),
  /** sha256hex(JCS({ v: 1, modelId, promptDigest, argumentsDigest, agentVersion? })). */
  commitment: Sha256HexSchema,
  modelId: Type.String({ description: 'model_id of the registered agent, or "unspecified"' }),
  /** agent_version of the registered agent, when it registered with one. */
  agentVersion: Type.Optional(Type.String()),
  /** sha256hex of the UTF-8 trigger prompt ("" when absent). */
  promptDigest: Sha256HexSchema,
  /** sha256hex(JCS(arguments)). */
  argumentsDigest: Sha256HexSchema,
  note: textSchema(),
});
export type ZkInferenceTier = Static<typeof ZkInferenceTierSchema>;

/** One cited paragraph of a compliance defence brief. */
export const DefenceCitationSchema = Type.Object({
  ruleId: NameSchema,
  kind: Type.Union([Type.Literal('region'), Type.Literal('department'), Type.Literal('data-residency')]),
  citation: textSchema(256),
  finding: textSchema(),
});

/**
 * tier1 `jurisdiction`: region, department and data-residency rules from the tenant policy. On a veto it
 * carries `defenceBrief`: which rule, which legal or internal authority it implements, and what the call did.
 */
export const JurisdictionTierSchema = Type.Object({
  passed: Type.Boolean(),
  region: Type.Optional(Type.String()),
  department: Type.Optional(Type.String()),
  /** Ids of the rules whose tool patterns matched this call. */
  rulesApplied: Type.Array(Type.String()),
  defenceBrief: Type.Optional(
    Type.Object({ summary: textSchema(), citations: Type.Array(DefenceCitationSchema) }),
  ),
});
export type JurisdictionTier = Static<typeof JurisdictionTierSchema>;

/** One explainable injection finding: which rule fired where, and how much it weighs. */
export const InjectionFindingSchema = Type.Object({
  ruleId: Type.String(),
  category: Type.String({
    description:
      'instruction-override | role-hijack | prompt-exfiltration | delimiter-smuggling | encoding-smuggling | ' +
      'tool-abuse | data-exfiltration | indirect-address | tenant-pattern',
  }),
  weight: Type.Number({ minimum: 0, maximum: 1 }),
  /** JSON Pointer into the call: `/trigger_prompt` or `/arguments/…`. */
  field: Type.String(),
  /** The matched text (after normalisation), at most 200 characters. */
  excerpt: Excerpt,
});

/**
 * tier2 `proofFirewall`: the RISK, PROVENANCE and INVARIANT checks on the call's content.
 * - `injection.score` = 1 − Π(1 − weight) over distinct rules per field; the call is flagged when the
 *   highest field score reaches `threshold`.
 * - `provenance` lists each custody attestation checked against the tenant's trusted `custody` keys.
 * - `protectedResources` lists arguments that touch a resource the policy protects.
 */
export const ProofFirewallTierSchema = Type.Object({
  passed: Type.Boolean(),
  injection: Type.Object({
    flagged: Type.Boolean(),
    score: Type.Number({ minimum: 0, maximum: 1 }),
    threshold: Type.Number({ minimum: 0, maximum: 1 }),
    fieldsScanned: Type.Integer({ minimum: 0 }),
    findings: Type.Array(InjectionFindingSchema),
  }),
  provenance: Type.Object({
    /** Argument names the policy requires custody for on this tool. */
    requiredFor: Type.Array(Type.String()),
    verified: Type.Array(
      Type.Object({
        keyid: Type.String(),
        dataDigest: Sha256HexSchema,
        source: Type.String(),
        custodian: Type.String(),
      }),
    ),
    failures: Type.Array(Type.String()),
  }),
  protectedResources: Type.Array(
    Type.Object({ ruleId: Type.String(), pattern: Type.String(), field: Type.String(), value: Excerpt }),
  ),
});
export type ProofFirewallTier = Static<typeof ProofFirewallTierSchema>;

/**
 * tier2 `arbitration`: how the rules combined. Deny overrides everything; otherwise a consent-class tool
 * raises REQUIRE_HUMAN, a hold tool HELD_FOR_VETO (with `holdMs`); otherwise ALLOW.
 */
export const ArbitrationTierSchema = Type.Object({
  status: AuthorizationStatusSchema,
  combining: Type.Literal('deny-overrides'),
  /** Every rule that produced an effect, in evaluation order. */
  effects: Type.Array(
    Type.Object({
      source: Type.String({ description: 'tier and rule id, e.g. "tier3.economic/budget"' }),
      effect: Type.Union([Type.Literal('deny'), Type.Literal('require-human'), Type.Literal('hold')]),
      code: Type.String(),
    }),
  ),
  /** The effect that decided the status, or "no-objection" for ALLOW. */
  decidedBy: Type.String(),
  holdMs: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type ArbitrationTier = Static<typeof ArbitrationTierSchema>;

/**
 * tier3 `economic`: the budget reserve and the metabolic ledger. `budget.remaining` is what the lobe may
 * still spend in the window: limit × (1 − reservePercent/100) − spent − reserved.
 */
export const EconomicTierSchema = Type.Object({
  passed: Type.Boolean(),
  budget: Type.Object({
    ruleId: Type.Optional(Type.String()),
    limit: Amount,
    reservePercent: Type.Number({ minimum: 0, maximum: 100 }),
    windowMs: Type.Integer({ minimum: 0 }),
    spentInWindow: Amount,
    reservedInWindow: Amount,
    remaining: Amount,
    requested: Amount,
    /** What the store should reserve if the call goes ahead (0 on DENY). */
    reserveAmount: Amount,
  }),
  metabolic: Type.Object({
    fingerprint: Sha256HexSchema,
    nearFingerprint: Sha256HexSchema,
    identicalInWindow: Type.Integer({ minimum: 0 }),
    nearIdenticalInWindow: Type.Integer({ minimum: 0 }),
    callDepth: Type.Integer({ minimum: 0 }),
    /** Distinct denied variants of this tool recently proposed by the same lobe. */
    deniedVariantsInWindow: Type.Integer({ minimum: 0 }),
  }),
});
export type EconomicTier = Static<typeof EconomicTierSchema>;

/** tier3 `simulation`: the state after the call if it executes. */
export const SimulationTierSchema = Type.Object({
  wouldExecute: Type.Boolean(),
  projected: Type.Object({
    spentAfter: Amount,
    remainingAfter: Amount,
    /** (spent + reserved + this call) / limit × 100. */
    utilisationPercent: Type.Number({ minimum: 0 }),
  }),
  /** Plain-language effects: budget movement, protected resources, holds. */
  effects: Type.Array(Type.String()),
});
export type SimulationTier = Static<typeof SimulationTierSchema>;

export const VerdictTiersSchema = Type.Object({
  tier1: Type.Object({ zkInference: ZkInferenceTierSchema, jurisdiction: JurisdictionTierSchema }),
  tier2: Type.Object({ proofFirewall: ProofFirewallTierSchema, arbitration: ArbitrationTierSchema }),
  tier3: Type.Object({ economic: EconomicTierSchema, simulation: SimulationTierSchema }),
});
export type VerdictTiers = Static<typeof VerdictTiersSchema>;
