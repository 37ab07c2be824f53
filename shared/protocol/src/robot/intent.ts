/**
 * What an autonomous planner asks the robot to do, before any gate has looked at it: a joint trajectory
 * (the shape of trajectory_msgs/JointTrajectory) or a base twist held for a duration (geometry_msgs/Twist).
 * Arrives on MQTT `pentagate/v1/<robotId>/intent`. The edge turns an intent into a signed motor command only
 * when all five gates pass (ARCHITECTURE.md §4).
 *
 * Cross-field rules (one value per joint, strictly increasing `timeFromStartMs`, the profile's joint set)
 * cannot be said in JSON Schema; the edge checks them and answers a `rejected-input` verdict.
 */
import { type Static, Type } from '@sinclair/typebox';
import { IdentifierSchema, RobotIdSchema } from '../schemas/primitives.js';
import {
  JointNameSchema,
  JointTrajectoryPointSchema,
  MAX_JOINTS,
  MAX_MOTION_DURATION_MS,
  MAX_TRAJECTORY_POINTS,
} from '../schemas/setpoints.js';

/** A move class names an energy allocation and, optionally, a consent requirement in the robot profile. */
export const MoveClassSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
});

const common = {
  v: Type.Literal(1),
  /** Chosen by the planner; the signed command carries it so the audit trail joins intent and command. */
  intentId: IdentifierSchema,
  robotId: RobotIdSchema,
  /** Key into the profile's battery allocations and consent policy; `default` when absent. */
  moveClass: Type.Optional(MoveClassSchema),
  /** The planner marks a move safety-critical; the CONSENT gate then wants an operator's signature. */
  safetyCritical: Type.Optional(Type.Boolean()),
};

/** With `uniqueNames: false` the schema leaves name uniqueness to shape-checks.ts (a Set is far cheaper). */
function jointTrajectoryIntent(uniqueNames: boolean) {
  return Type.Object(
    {
      ...common,
      kind: Type.Literal('joint-trajectory'),
      jointNames: Type.Array(JointNameSchema, {
        minItems: 1,
        maxItems: MAX_JOINTS,
        ...(uniqueNames ? { uniqueItems: true } : {}),
      }),
      points: Type.Array(JointTrajectoryPointSchema, { minItems: 1, maxItems: MAX_TRAJECTORY_POINTS }),
    },
    { additionalProperties: false },
  );
}

export const JointTrajectoryIntentSchema = jointTrajectoryIntent(true);
export type JointTrajectoryIntent = Static<typeof JointTrajectoryIntentSchema>;

function vector3(limit: number) {
  const axis = Type.Number({ minimum: -limit, maximum: limit });
  return Type.Object({ x: axis, y: axis, z: axis }, { additionalProperties: false });
}

export const BaseTwistIntentSchema = Type.Object(
  {
    ...common,
    kind: Type.Literal('base-twist'),
    /** Linear velocity in the base frame, m/s. */
    linearMps: vector3(100),
    /** Angular velocity in the base frame, rad/s. */
    angularRadS: vector3(100),
    /** How long to hold the twist, ms. */
    durationMs: Type.Integer({ minimum: 1, maximum: MAX_MOTION_DURATION_MS }),
  },
  { additionalProperties: false },
);
export type BaseTwistIntent = Static<typeof BaseTwistIntentSchema>;

export const IntentSchema = Type.Union([JointTrajectoryIntentSchema, BaseTwistIntentSchema]);
/** IntentSchema without `uniqueItems` on joint names; only for `isIntent` (shape-checks.ts), which adds it back. */
export const IntentShapeSchema = Type.Union([jointTrajectoryIntent(false), BaseTwistIntentSchema]);
export type Intent = Static<typeof IntentSchema>;
