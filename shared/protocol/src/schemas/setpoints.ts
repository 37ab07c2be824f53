/**
 * What a motor command tells the controller to do: follow a joint trajectory (the shape of
 * trajectory_msgs/JointTrajectory), drive the base at a twist (geometry_msgs/Twist), or stop.
 *
 * Bounds are sanity limits of the wire format, far above any real robot; the robot profile's limits are
 * enforced by the edge gates. Cross-field rules (one position per joint, strictly increasing
 * `timeFromStartMs`) cannot be said in JSON Schema and are checked by the edge when it signs.
 */
import { type Static, Type } from '@sinclair/typebox';
import { textSchema } from './primitives.js';

export const MAX_JOINTS = 32;
export const MAX_TRAJECTORY_POINTS = 10_000;
/** Longest trajectory or twist: one hour. A command is re-signed long before that. */
export const MAX_MOTION_DURATION_MS = 3_600_000;

/** A URDF-style joint name (`shoulder_pan_joint`, `arm/elbow`). */
export const JointNameSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z_][A-Za-z0-9_./-]*$',
});

/** Fraction of the nominal speed, 0..1: the RISK gate lowers it near humans (speed and separation monitoring). */
export const SpeedScaleSchema = Type.Number({ minimum: 0, maximum: 1 });

function perJoint(minimum: number, maximum: number) {
  return Type.Array(Type.Number({ minimum, maximum }), { minItems: 1, maxItems: MAX_JOINTS });
}

export const JointTrajectoryPointSchema = Type.Object(
  {
    /** Joint positions in radians (metres for prismatic joints), one per joint name; |x| <= 10^4. */
    positionsRad: perJoint(-1e4, 1e4),
    /** Joint velocities in rad/s (m/s for prismatic joints); |v| <= 10^3. */
    velocitiesRadS: Type.Optional(perJoint(-1e3, 1e3)),
    /** Joint efforts in N·m (N for prismatic joints); |τ| <= 10^5. */
    effortsNm: Type.Optional(perJoint(-1e5, 1e5)),
    /** When this point must be reached, in ms after the command starts. */
    timeFromStartMs: Type.Integer({ minimum: 0, maximum: MAX_MOTION_DURATION_MS }),
  },
  { additionalProperties: false },
);
export type JointTrajectoryPoint = Static<typeof JointTrajectoryPointSchema>;

export const JointSetpointsSchema = Type.Object(
  {
    kind: Type.Literal('joint'),
    jointNames: Type.Array(JointNameSchema, { minItems: 1, maxItems: MAX_JOINTS, uniqueItems: true }),
    points: Type.Array(JointTrajectoryPointSchema, { minItems: 1, maxItems: MAX_TRAJECTORY_POINTS }),
    speedScale: Type.Optional(SpeedScaleSchema),
  },
  { additionalProperties: false },
);
export type JointSetpoints = Static<typeof JointSetpointsSchema>;

function vector3(limit: number) {
  const axis = Type.Number({ minimum: -limit, maximum: limit });
  return Type.Object({ x: axis, y: axis, z: axis }, { additionalProperties: false });
}

export const TwistSetpointsSchema = Type.Object(
  {
    kind: Type.Literal('twist'),
    /** Linear velocity of the base in m/s, in the base frame; |v| <= 100 per axis. */
    linearMps: vector3(100),
    /** Angular velocity of the base in rad/s, in the base frame; |ω| <= 100 per axis. */
    angularRadS: vector3(100),
    /** How long to hold the twist, in ms; the controller stops the base after it. */
    durationMs: Type.Integer({ minimum: 1, maximum: MAX_MOTION_DURATION_MS }),
    speedScale: Type.Optional(SpeedScaleSchema),
  },
  { additionalProperties: false },
);
export type TwistSetpoints = Static<typeof TwistSetpointsSchema>;

export const StopSetpointsSchema = Type.Object(
  {
    kind: Type.Literal('stop'),
    /** Why the stop was issued (`RISK.HUMAN_IN_RADIUS: …`), for the operator and the audit log. */
    reason: textSchema(512),
  },
  { additionalProperties: false },
);
export type StopSetpoints = Static<typeof StopSetpointsSchema>;

export const SetpointsSchema = Type.Union([JointSetpointsSchema, TwistSetpointsSchema, StopSetpointsSchema]);
export type Setpoints = Static<typeof SetpointsSchema>;
