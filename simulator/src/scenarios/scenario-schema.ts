/**
 * The scenario file format (`simulator/scenarios/*.yaml`): which robot and profile, who walks where, what
 * happens when (intents, sensor faults, battery drain, attacks on the command wire, firmware and calibration
 * trouble, operator consent), and what must be true afterwards. Validated with TypeBox; every problem is
 * reported with its path (`timeline[3].intent.to: expected array, got "up"`).
 */
import { type Static, Type } from '@sinclair/typebox';

const ms = (max = 600_000) => Type.Integer({ minimum: 0, maximum: max });
const metres = Type.Number({ minimum: -1000, maximum: 1000 });
/** A count condition: a number (exactly) or `">=1"`, `"<=2"`, `"==0"`, `">0"`. */
export const CountConditionSchema = Type.Union([
  Type.Integer({ minimum: 0 }),
  Type.String({ pattern: '^(>=|<=|==|>|<)\\s*[0-9]+$' }),
]);
export type CountCondition = Static<typeof CountConditionSchema>;

const IdSchema = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' });

export const ATTACKS = [
  'tampered',
  'replayed',
  'expired',
  'wrong-epoch',
  'unsigned',
  'unknown-key',
  'wrong-robot',
] as const;
export type Attack = (typeof ATTACKS)[number];

export const CONSENT_DECISIONS = ['grant', 'deny', 'late', 'expired-token', 'forged', 'replay'] as const;
export type ConsentDecision = (typeof CONSENT_DECISIONS)[number];

const JointIntentStep = Type.Object(
  {
    id: IdSchema,
    kind: Type.Literal('joint'),
    /** Target joint positions, rad, in profile joint order. */
    to: Type.Array(Type.Number({ minimum: -100, maximum: 100 }), { minItems: 1, maxItems: 32 }),
    durationMs: Type.Integer({ minimum: 10, maximum: 60_000 }),
    /** Intermediate points (default 4): planned efforts come from the arm model at each. */
    points: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
    /** Multiply the planned efforts (a heavy payload the planner admits to). */
    effortScale: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    moveClass: Type.Optional(IdSchema),
    safetyCritical: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const TwistIntentStep = Type.Object(
  {
    id: IdSchema,
    kind: Type.Literal('twist'),
    linearMps: Type.Number({ minimum: -10, maximum: 10 }),
    angularRadS: Type.Number({ minimum: -10, maximum: 10 }),
    durationMs: Type.Integer({ minimum: 10, maximum: 60_000 }),
    moveClass: Type.Optional(IdSchema),
    safetyCritical: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const TimelineEventSchema = Type.Object(
  {
    /** When, ms after the scenario starts. */
    at: ms(),
    intent: Type.Optional(Type.Union([JointIntentStep, TwistIntentStep])),
    sensorFault: Type.Optional(
      Type.Object(
        {
          /** A proximity source; all of them when absent. */
          source: Type.Optional(IdSchema),
          fault: Type.Union([
            Type.Literal('stale'),
            Type.Literal('dropout'),
            Type.Literal('nan'),
            Type.Literal('none'),
          ]),
        },
        { additionalProperties: false },
      ),
    ),
    batteryDrain: Type.Optional(
      Type.Object(
        { toStateOfCharge: Type.Number({ minimum: 0, maximum: 1 }) },
        { additionalProperties: false },
      ),
    ),
    /** An attacker on the command wire between broker and controller. */
    inject: Type.Optional(
      Type.Object(
        { attack: Type.Union(ATTACKS.map((a) => Type.Literal(a))) },
        { additionalProperties: false },
      ),
    ),
    /**
     * The planner publishes intent `intent` (earlier in the timeline) again, byte for byte: MQTT at QoS 1
     * delivers at least once, and a planner whose PUBLISH was not acknowledged before its link dropped resends it.
     */
    redeliver: Type.Optional(Type.Object({ intent: IdSchema }, { additionalProperties: false })),
    /** The operator's answer to the consent request of intent `intent`. */
    consent: Type.Optional(
      Type.Object(
        {
          intent: IdSchema,
          decision: Type.Union(CONSENT_DECISIONS.map((d) => Type.Literal(d))),
        },
        { additionalProperties: false },
      ),
    ),
    /** The controller starts reporting another firmware version (one the vendor never signed). */
    firmware: Type.Optional(Type.Object({ running: IdSchema }, { additionalProperties: false })),
    /** A joint's measured effort jumps by this much (a collision), N·m per joint. */
    effortOffsetNm: Type.Optional(Type.Array(Type.Number({ minimum: -1e4, maximum: 1e4 }), { maxItems: 32 })),
  },
  { additionalProperties: false },
);
export type TimelineEvent = Static<typeof TimelineEventSchema>;

export const ExpectationsSchema = Type.Object(
  {
    /** Every protective stop reaches the controller within this many ms of the first telemetry frame showing the human inside the radius. */
    vetoWithinMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 60_000 })),
    /** No motion while a person is inside the operating radius (after the stop latency above). */
    noMotionWhile: Type.Optional(Type.Literal('humanInRadius')),
    /** Every movement traces to a command the controller accepted, signed with the shared key and announced by a `signed` verdict. */
    noUnsignedMotion: Type.Optional(Type.Boolean()),
    /** Controller rejections by reason (`replayed-seq`, …) or attack alias (`replay`, `tamper`, …). */
    controllerRejected: Type.Optional(Type.Record(Type.String(), CountConditionSchema)),
    /** Verdict counts by outcome (`signed`, `vetoed`, `stopped`, `awaiting-consent`, `consent-expired`, `rejected-input`). */
    verdicts: Type.Optional(Type.Record(Type.String(), CountConditionSchema)),
    /** Violation codes that must appear in some verdict (`RISK.HUMAN_IN_RADIUS`). */
    violations: Type.Optional(Type.Array(Type.String({ minLength: 3 }), { maxItems: 32 })),
    /** Intents that must have been executed (a command for them accepted and started). */
    executed: Type.Optional(Type.Array(IdSchema, { maxItems: 64 })),
    /** Intents that must never have been executed. */
    notExecuted: Type.Optional(Type.Array(IdSchema, { maxItems: 64 })),
    /** Halts the controller made on its own (no valid command within its watchdog period). */
    watchdogHalts: Type.Optional(CountConditionSchema),
  },
  { additionalProperties: false },
);
export type Expectations = Static<typeof ExpectationsSchema>;

export const ScenarioSchema = Type.Object(
  {
    name: IdSchema,
    description: Type.String({ minLength: 1, maxLength: 400 }),
    /** Which vertices and attacks this scenario covers (for `sim list` and the coverage test). */
    covers: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 16 }),
    /** A profile file, relative to the scenario file (`../../edge/profiles/ur5e-arm.yaml`). */
    profile: Type.String({ minLength: 1, maxLength: 1024 }),
    /** Fields replaced in the profile for this scenario (deep merge: a shorter consent timeout, SSM off). */
    profileOverrides: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    durationMs: Type.Integer({ minimum: 100, maximum: 600_000 }),
    seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 32 - 1 })),
    /** Controller watchdog, ms (default 1500). */
    watchdogMs: Type.Optional(Type.Integer({ minimum: 10, maximum: 60_000 })),
    initial: Type.Optional(
      Type.Object(
        {
          jointsRad: Type.Optional(
            Type.Array(Type.Number({ minimum: -100, maximum: 100 }), { maxItems: 32 }),
          ),
          stateOfCharge: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
    firmware: Type.Optional(
      Type.Object(
        { signed: Type.Optional(IdSchema), running: Type.Optional(IdSchema) },
        { additionalProperties: false },
      ),
    ),
    calibration: Type.Optional(
      Type.Union([Type.Literal('valid'), Type.Literal('expired'), Type.Literal('missing')]),
    ),
    sensors: Type.Optional(
      Type.Object(
        {
          noiseSigmaM: Type.Optional(Type.Number({ minimum: 0, maximum: 10 })),
          latencyMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
          dropoutProbability: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
          rangeM: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1000 })),
        },
        { additionalProperties: false },
      ),
    ),
    people: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: IdSchema,
            path: Type.Array(
              Type.Object({ at: ms(), x: metres, y: metres }, { additionalProperties: false }),
              { minItems: 1, maxItems: 100 },
            ),
          },
          { additionalProperties: false },
        ),
        { maxItems: 16 },
      ),
    ),
    timeline: Type.Array(TimelineEventSchema, { maxItems: 500 }),
    expect: ExpectationsSchema,
  },
  { additionalProperties: false },
);
export type Scenario = Static<typeof ScenarioSchema>;
