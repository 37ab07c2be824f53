/**
 * Telemetry frames a robot reports to its edge node on MQTT `pentagate/v1/<robotId>/telemetry/<source>`
 * (or from ROS 2 topics mapped to the same shapes). The gates decide on the latest frame of each source;
 * a frame older than its source's `maxAgeMs` counts as missing (ARCHITECTURE.md §4).
 *
 * `seq` increases per source; `stampMs` is the source's own clock (Unix ms). Values out of physical range are
 * refused by the schema; per-robot ranges (joint count, names) are checked by the edge telemetry store.
 */
import { type Static, Type } from '@sinclair/typebox';
import {
  base64UrlOfBytesSchema,
  KeyIdSchema,
  NameSchema,
  RobotIdSchema,
  Sha256HexSchema,
  UnixMsSchema,
} from '../schemas/primitives.js';
import { JointNameSchema, MAX_JOINTS } from '../schemas/setpoints.js';

/** A telemetry source name, one MQTT topic level: `proximity-front`, `joint_states`. */
export const SourceNameSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
});

/**
 * A sensor node's MAC over its frame (ARCHITECTURE.md §4, "Authenticated sources"):
 *   hmacSha256 = base64url(HMAC-SHA256(key, "pentagate-sensor-v1\n" || JCS(frame without mac)))
 * `keyId` names the source's key (hmacKeyId of the secret: a hash, safe to log). A broker account proves
 * only who connected; this proves which sensor produced the reading, end to end.
 */
export const FrameMacSchema = Type.Object(
  { keyId: KeyIdSchema, hmacSha256: base64UrlOfBytesSchema(32) },
  { additionalProperties: false },
);
export type FrameMac = Static<typeof FrameMacSchema>;

const common = {
  v: Type.Literal(1),
  robotId: RobotIdSchema,
  source: SourceNameSchema,
  /** Per-source counter; a frame whose seq is not greater than the last accepted one is refused. */
  seq: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  /** Source clock, Unix ms. */
  stampMs: UnixMsSchema,
  /** The sensor node's MAC; required when the profile marks the source `authenticated`. */
  mac: Type.Optional(FrameMacSchema),
};

function perJoint(limit: number, minItems = 1) {
  return Type.Array(Type.Number({ minimum: -limit, maximum: limit }), { minItems, maxItems: MAX_JOINTS });
}

const Vector3M = Type.Object(
  {
    x: Type.Number({ minimum: -1e6, maximum: 1e6 }),
    y: Type.Number({ minimum: -1e6, maximum: 1e6 }),
    z: Type.Number({ minimum: -1e6, maximum: 1e6 }),
  },
  { additionalProperties: false },
);

const unit = Type.Number({ minimum: -1, maximum: 1 });

const rate = Type.Number({ minimum: -1e3, maximum: 1e3 });
const VelocityVector = Type.Object({ x: rate, y: rate, z: rate }, { additionalProperties: false });

/** With `uniqueNames: false` the schema leaves name uniqueness to shape-checks.ts (a Set is far cheaper). */
function jointStateFrame(uniqueNames: boolean) {
  return Type.Object(
    {
      ...common,
      kind: Type.Literal('joint-state'),
      names: Type.Array(JointNameSchema, {
        minItems: 1,
        maxItems: MAX_JOINTS,
        ...(uniqueNames ? { uniqueItems: true } : {}),
      }),
      positionsRad: perJoint(1e4),
      /**
       * Measured joint velocity, rad/s; empty when the robot does not measure it (sensor_msgs/JointState: "each
       * array may be empty"). A gate that needs it fails closed without it.
       */
      velocitiesRadS: perJoint(1e3, 0),
      /** Measured joint effort, N·m (sensor_msgs/JointState.effort); empty when not measured, as velocity. */
      effortsNm: perJoint(1e5, 0),
    },
    { additionalProperties: false },
  );
}

export const JointStateFrameSchema = jointStateFrame(true);
export type JointStateFrame = Static<typeof JointStateFrameSchema>;

export const PoseFrameSchema = Type.Object(
  {
    ...common,
    kind: Type.Literal('pose'),
    /** Position of the base in the map frame, m. */
    positionM: Vector3M,
    /** Orientation as a unit quaternion (x, y, z, w); the store checks its norm. */
    orientation: Type.Object({ x: unit, y: unit, z: unit, w: unit }, { additionalProperties: false }),
    /**
     * Measured velocity of the base in its own frame, when the source gives one (nav_msgs/Odometry's twist, in
     * child_frame_id): linear m/s, angular rad/s.
     */
    velocity: Type.Optional(
      Type.Object(
        { linearMps: VelocityVector, angularRadS: VelocityVector },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type PoseFrame = Static<typeof PoseFrameSchema>;

export const ProximityFrameSchema = Type.Object(
  {
    ...common,
    kind: Type.Literal('proximity'),
    /** Distance to the nearest detected human, m; `null` means the sensor sees nobody. */
    nearestHumanM: Type.Union([Type.Number({ minimum: 0, maximum: 1e4 }), Type.Null()]),
    /** Bearing of that human in the robot frame, rad. */
    sectorRad: Type.Optional(Type.Number({ minimum: -2 * Math.PI, maximum: 2 * Math.PI })),
  },
  { additionalProperties: false },
);
export type ProximityFrame = Static<typeof ProximityFrameSchema>;

export const BatteryFrameSchema = Type.Object(
  {
    ...common,
    kind: Type.Literal('battery'),
    voltageV: Type.Number({ minimum: 0, maximum: 2000 }),
    /** Positive when discharging, A. */
    currentA: Type.Number({ minimum: -2000, maximum: 2000 }),
    /** 0 = empty, 1 = full. */
    stateOfCharge: Type.Number({ minimum: 0, maximum: 1 }),
    temperatureC: Type.Optional(Type.Number({ minimum: -100, maximum: 200 })),
  },
  { additionalProperties: false },
);
export type BatteryFrame = Static<typeof BatteryFrameSchema>;

export const FirmwareFrameSchema = Type.Object(
  {
    ...common,
    kind: Type.Literal('firmware'),
    /** SHA-256 of the firmware image the controller is running, as it reports it. */
    imageSha256: Sha256HexSchema,
    version: NameSchema,
  },
  { additionalProperties: false },
);
export type FirmwareFrame = Static<typeof FirmwareFrameSchema>;

export const TelemetryFrameSchema = Type.Union([
  JointStateFrameSchema,
  PoseFrameSchema,
  ProximityFrameSchema,
  BatteryFrameSchema,
  FirmwareFrameSchema,
]);
/** TelemetryFrameSchema without `uniqueItems` on joint names; only for `isTelemetryFrame` (shape-checks.ts). */
export const TelemetryFrameShapeSchema = Type.Union([
  jointStateFrame(false),
  PoseFrameSchema,
  ProximityFrameSchema,
  BatteryFrameSchema,
  FirmwareFrameSchema,
]);
export type TelemetryFrame = Static<typeof TelemetryFrameSchema>;
export type TelemetryKind = TelemetryFrame['kind'];
export const TELEMETRY_KINDS: readonly TelemetryKind[] = [
  'joint-state',
  'pose',
  'proximity',
  'battery',
  'firmware',
];
