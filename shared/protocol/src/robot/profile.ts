/**
 * The robot profile: everything the edge gates need to know about one robot (ARCHITECTURE.md §4 "Robot profile").
 * Written in YAML by the integrator, validated at load time by `loadRobotProfile` in @pentagate/edge, which
 * reports every problem with its path. Lives in the protocol package so the simulator can drive its models
 * from the same file the edge uses (the ros2_control habit: one configuration for robot and test double).
 *
 * Every physical quantity carries its unit in its name. Frames: an arm's zones are in its base frame
 * (the frame of DH joint 1); a mobile base's zones and pose are in the map frame.
 */
import { type Static, Type } from '@sinclair/typebox';
import { KeyIdSchema, NameSchema, RobotIdSchema } from '../schemas/primitives.js';
import { JointNameSchema, MAX_JOINTS } from '../schemas/setpoints.js';
import { MoveClassSchema } from './intent.js';
import { SourceNameSchema } from './telemetry.js';

const positive = (maximum = 1e6) => Type.Number({ exclusiveMinimum: 0, maximum });
const nonNegative = (maximum = 1e6) => Type.Number({ minimum: 0, maximum });
const finite = (limit = 1e6) => Type.Number({ minimum: -limit, maximum: limit });
const Point3M = Type.Object({ x: finite(), y: finite(), z: finite() }, { additionalProperties: false });

/** Denavit–Hartenberg parameters (classic convention, as published for the UR family). */
export const DhParametersSchema = Type.Object(
  {
    aM: finite(100),
    dM: finite(100),
    alphaRad: finite(2 * Math.PI),
    thetaOffsetRad: finite(2 * Math.PI),
  },
  { additionalProperties: false },
);
export type DhParameters = Static<typeof DhParametersSchema>;

export const JointProfileSchema = Type.Object(
  {
    name: JointNameSchema,
    torqueLimitNm: positive(1e5),
    positionLimitsRad: Type.Object({ min: finite(1e4), max: finite(1e4) }, { additionalProperties: false }),
    velocityLimitRadS: positive(1e3),
    dh: DhParametersSchema,
  },
  { additionalProperties: false },
);
export type JointProfile = Static<typeof JointProfileSchema>;

const zoneCommon = { id: NameSchema, description: Type.Optional(Type.String({ maxLength: 512 })) };

export const BoxZoneSchema = Type.Object(
  { ...zoneCommon, shape: Type.Literal('box'), minM: Point3M, maxM: Point3M },
  { additionalProperties: false },
);
export const SphereZoneSchema = Type.Object(
  { ...zoneCommon, shape: Type.Literal('sphere'), centerM: Point3M, radiusM: positive(1e4) },
  { additionalProperties: false },
);
/** A vertical prism: a simple polygon in the x-y plane extruded from zMinM to zMaxM. */
export const PrismZoneSchema = Type.Object(
  {
    ...zoneCommon,
    shape: Type.Literal('prism'),
    polygonM: Type.Array(Type.Object({ x: finite(), y: finite() }, { additionalProperties: false }), {
      minItems: 3,
      maxItems: 64,
    }),
    zMinM: finite(),
    zMaxM: finite(),
  },
  { additionalProperties: false },
);
export const KeepOutZoneSchema = Type.Union([BoxZoneSchema, SphereZoneSchema, PrismZoneSchema]);
export type BoxZone = Static<typeof BoxZoneSchema>;
export type SphereZone = Static<typeof SphereZoneSchema>;
export type PrismZone = Static<typeof PrismZoneSchema>;
export type KeepOutZone = Static<typeof KeepOutZoneSchema>;
export const ZONE_SCHEMAS = { box: BoxZoneSchema, sphere: SphereZoneSchema, prism: PrismZoneSchema } as const;

export const KeepOutSchema = Type.Object(
  {
    /**
     * No zone is thinner than this, m. The path is sampled so that no checked point moves more than this
     * between samples, and zones are inflated by half of it, so the continuous path is covered.
     */
    minZoneThicknessM: positive(10),
    zones: Type.Array(KeepOutZoneSchema, { maxItems: 256 }),
  },
  { additionalProperties: false },
);

/** Mobile-base kinematics and a simple drive power model. */
export const BaseProfileSchema = Type.Object(
  {
    /** Radius of a disc that covers the base footprint, m; zones are inflated by it. */
    footprintRadiusM: nonNegative(100),
    maxLinearMps: positive(100),
    maxAngularRadS: positive(100),
    massKg: positive(1e5),
    /** Rolling-resistance coefficient (dimensionless), for the drive power m·g·Crr·|v|. */
    rollingResistance: nonNegative(1),
    /** Extra electrical power per rad/s of turning, W·s/rad. */
    turnPowerWPerRadS: nonNegative(1e5),
  },
  { additionalProperties: false },
);
export type BaseProfile = Static<typeof BaseProfileSchema>;

/** Speed and separation monitoring, ISO/TS 15066:2016 §5.5.4, eq. (1). */
export const SsmSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    /** v_h, m/s; ISO 13855 / ISO/TS 15066 use 1.6 m/s when not measured. Default 1.6. */
    humanSpeedMps: Type.Optional(positive(10)),
    /** v_r, the robot's fastest speed toward a human at full speed, m/s. */
    robotSpeedMps: positive(100),
    /** T_r, the time from a human entering the field to the stop being commanded, s. */
    reactionTimeS: nonNegative(10),
    /** T_s, the robot's stopping time from full speed, s. */
    stoppingTimeS: nonNegative(10),
    /** S_s, the robot's stopping distance from full speed, m. */
    stoppingDistanceM: nonNegative(100),
    /** C, intrusion distance (ISO 13855 body-part reach), m. */
    intrusionDistanceM: nonNegative(10),
    /** Z_d, position uncertainty of the human (sensor measurement tolerance), m. */
    humanPositionUncertaintyM: nonNegative(10),
    /** Z_r, position uncertainty of the robot, m. */
    robotPositionUncertaintyM: nonNegative(10),
    /** Slowest speed cap RISK may offer instead of a veto, 0..1. Default 0.1. */
    minSpeedScale: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1 })),
  },
  { additionalProperties: false },
);
export type SsmParameters = Static<typeof SsmSchema>;

export const RiskProfileSchema = Type.Object(
  {
    /** No motion while a human is nearer than this, m (used when SSM is disabled). */
    operatingRadiusM: positive(1e3),
    /** Proximity sources consulted; default: every source of kind `proximity`. */
    proximitySources: Type.Optional(Type.Array(SourceNameSchema, { minItems: 1, maxItems: 32 })),
    ssm: SsmSchema,
  },
  { additionalProperties: false },
);

export const BatteryProfileSchema = Type.Object(
  {
    capacityWh: positive(1e6),
    internalResistanceOhm: nonNegative(100),
    nominalVoltageV: positive(2000),
    /** Below this terminal voltage the drives brown out, V. */
    minVoltageV: positive(2000),
    /** Battery-to-shaft efficiency, (0, 1]. */
    efficiency: Type.Number({ exclusiveMinimum: 0, maximum: 1 }),
    /** Electronics, brakes and controller at rest, W. */
    idlePowerW: nonNegative(1e5),
    /** Energy kept back to reach a safe state (park, return to dock), Wh. */
    reserveWh: nonNegative(1e6),
    /** Energy a single move of each class may use, Wh; `default` applies to intents without a class. */
    allocationsWh: Type.Record(MoveClassSchema, positive(1e6)),
  },
  { additionalProperties: false },
);
export type BatteryProfile = Static<typeof BatteryProfileSchema>;

export const ConsentPolicySchema = Type.Object(
  {
    /** A planned (or assumed) joint effort above this needs an operator's signature, N·m. */
    highTorqueThresholdNm: positive(1e5),
    safetyCriticalMoveClasses: Type.Array(MoveClassSchema, { maxItems: 64 }),
    /** How long an intent waits for consent before it becomes a veto, ms. */
    timeoutMs: Type.Integer({ minimum: 1, maximum: 86_400_000 }),
  },
  { additionalProperties: false },
);

export const TrustProfileSchema = Type.Object(
  {
    /** An inline trust document `{ keys: [...] }` (the shape `GET /api/v1/keys` returns). */
    document: Type.Optional(Type.Unknown()),
    /** Or a path to a trust file, relative to the profile file. */
    path: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  },
  { additionalProperties: false },
);

export const SensorProfileSchema = Type.Object(
  {
    id: NameSchema,
    /** The telemetry source this sensor feeds, when it has one. */
    source: Type.Optional(SourceNameSchema),
    /** Whether PROVENANCE wants a valid calibration certificate for it. */
    calibrationRequired: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const TelemetryKindSchema = Type.Union([
  Type.Literal('joint-state'),
  Type.Literal('pose'),
  Type.Literal('proximity'),
  Type.Literal('battery'),
  Type.Literal('firmware'),
]);

export const SourceProfileSchema = Type.Object(
  {
    name: SourceNameSchema,
    kind: TelemetryKindSchema,
    /** A frame older than this (by arrival time) counts as missing, ms. */
    maxAgeMs: Type.Integer({ minimum: 1, maximum: 86_400_000 }),
    /**
     * Every frame must carry a valid `mac` by the key `macKeyId` (the sensor node's own HMAC key, given to
     * the edge with `--sensor-key`); unsigned or wrongly signed frames are refused.
     */
    authenticated: Type.Optional(Type.Boolean()),
    /** hmacKeyId of the source's sensor key; required when `authenticated`. */
    macKeyId: Type.Optional(KeyIdSchema),
    /**
     * Proximity sources: the farthest the sensor measures, m (its data sheet's range). A reading beyond it is
     * no measurement (millimetres sent as metres, a fault) and is refused; the source then reads as missing.
     * Without it only the frame schema's 10 km bounds a reading (`edge check` warns).
     */
    maxRangeM: Type.Optional(positive(1e4)),
    /** The one broker account allowed to publish this source's telemetry (binds it in both brokers' ACLs). */
    publisher: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\s#+]+$' })),
  },
  { additionalProperties: false },
);
export type SourceProfile = Static<typeof SourceProfileSchema>;

const QosSchema = Type.Object(
  {
    reliability: Type.Union([Type.Literal('reliable'), Type.Literal('best-effort')]),
    durability: Type.Union([Type.Literal('volatile'), Type.Literal('transient-local')]),
    depth: Type.Integer({ minimum: 1, maximum: 1000 }),
  },
  { additionalProperties: false },
);

export const TopicProfileSchema = Type.Object(
  {
    /** MQTT root; the default `pentagate/v1` gives `pentagate/v1/<robotId>/…`. */
    mqttRoot: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$' }),
    ),
    /** ROS 2 topic names and QoS per role (intent, jointStates, cmd, …), for the ROS 2 transport. */
    ros2: Type.Optional(
      Type.Record(
        Type.String({ pattern: '^[A-Za-z][A-Za-z0-9]*$' }),
        Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 256, pattern: '^/?[A-Za-z_~{][A-Za-z0-9_/{}~]*$' }),
            qos: QosSchema,
          },
          { additionalProperties: false },
        ),
      ),
    ),
    /** The serial line to a controller, for the serial transport (`edge run --transport serial`). */
    serial: Type.Optional(
      Type.Object(
        {
          /** Device path: /dev/ttyACM0, /dev/serial/by-id/…; `--serial-port` overrides it. */
          path: Type.String({ minLength: 1, maxLength: 1024 }),
          baudRate: Type.Integer({ minimum: 300, maximum: 4_000_000 }),
          /** Newline-delimited JSON, or COBS frames delimited by 0x00 (binary-safe). */
          framing: Type.Union([Type.Literal('ndjson'), Type.Literal('cobs')]),
          /** Also write verdict events to the line (a controller needs only commands). */
          sendVerdicts: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const CommandProfileSchema = Type.Object(
  {
    /** validUntil = issuedAt + this, ms: a few sensor periods, so a command from a dead gate dies by itself. */
    validForMs: Type.Integer({ minimum: 1, maximum: 60_000 }),
  },
  { additionalProperties: false },
);

export const RobotProfileSchema = Type.Object(
  {
    v: Type.Literal(1),
    robotId: RobotIdSchema,
    kind: Type.Union([Type.Literal('arm'), Type.Literal('mobile-base')]),
    description: Type.Optional(Type.String({ maxLength: 1024 })),
    joints: Type.Array(JointProfileSchema, { maxItems: MAX_JOINTS }),
    base: Type.Optional(BaseProfileSchema),
    keepOut: KeepOutSchema,
    risk: RiskProfileSchema,
    battery: BatteryProfileSchema,
    consent: ConsentPolicySchema,
    trust: TrustProfileSchema,
    sensors: Type.Array(SensorProfileSchema, { maxItems: 64 }),
    sources: Type.Array(SourceProfileSchema, { minItems: 1, maxItems: 64 }),
    topics: Type.Optional(TopicProfileSchema),
    command: CommandProfileSchema,
  },
  { additionalProperties: false },
);
export type RobotProfile = Static<typeof RobotProfileSchema>;
