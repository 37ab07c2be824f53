/**
 * What the edge decided about an intent, a telemetry update or a consent token, published on MQTT
 * `pentagate/v1/<robotId>/verdict` and appended to the audit outbox. Each gate reports
 * `{ vertex, passed, violations, evidence }` (ARCHITECTURE.md §3); violations are stable codes with a readable tail,
 * e.g. `RISK.HUMAN_IN_RADIUS: human at 0.62 m < radius 1.20 m (proximity/front seq 4411, 7 ms old)`.
 */
import { type Static, Type } from '@sinclair/typebox';
import {
  IdentifierSchema,
  JsonObjectSchema,
  KeyIdSchema,
  RobotIdSchema,
  Sha256HexSchema,
  UnixMsSchema,
} from '../schemas/primitives.js';
import { SpeedScaleSchema } from '../schemas/setpoints.js';
import { VertexSchema } from '../schemas/kernel.js';

const violationText = Type.String({ minLength: 1, maxLength: 1024 });

export const GateResultSchema = Type.Object(
  {
    vertex: VertexSchema,
    passed: Type.Boolean(),
    violations: Type.Array(violationText, { maxItems: 256 }),
    /** What the gate looked at and computed (distances, energies, frame seqs), for the audit trail. */
    evidence: JsonObjectSchema,
  },
  { additionalProperties: false },
);
export type GateResult = Static<typeof GateResultSchema>;

export const VerdictOutcomeSchema = Type.Union([
  Type.Literal('signed'),
  Type.Literal('vetoed'),
  Type.Literal('awaiting-consent'),
  Type.Literal('stopped'),
  Type.Literal('rejected-input'),
  Type.Literal('consent-expired'),
]);
export type VerdictOutcome = Static<typeof VerdictOutcomeSchema>;

export const VerdictEventSchema = Type.Object(
  {
    v: Type.Literal(1),
    robotId: RobotIdSchema,
    intentId: Type.Optional(IdentifierSchema),
    outcome: VerdictOutcomeSchema,
    /** When the edge decided, Unix ms. */
    atMs: UnixMsSchema,
    /** Every violation of every gate, in gate order. */
    violations: Type.Array(violationText, { maxItems: 1024 }),
    gates: Type.Array(GateResultSchema, { maxItems: 5 }),
    /** SHA-256 of the JCS list of telemetry frames the decision used. */
    evidenceDigest: Type.Optional(Sha256HexSchema),
    /** The seq of the signed command (signed and stopped outcomes). */
    commandSeq: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
    /** The epoch of that command, so an auditor can check seq and epoch continuity of a robot's history. */
    commandEpoch: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    /**
     * That command's MAC key id and profile digest (its `kid` and `cfgDigest`): the fleet compares them with
     * what the robot was registered with, so a robot running another profile or key is seen.
     */
    commandKid: Type.Optional(KeyIdSchema),
    cfgDigest: Type.Optional(Sha256HexSchema),
    /** RISK's speed cap when the command was signed slower than planned. */
    speedScale: Type.Optional(SpeedScaleSchema),
    detail: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
);
export type VerdictEvent = Static<typeof VerdictEventSchema>;
