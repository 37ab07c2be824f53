/**
 * Turns a schema-valid intent into a motion plan in the profile's joint order, checking the cross-field rules
 * JSON Schema cannot say. A problem here is bad input (a `rejected-input` verdict), not a gate violation.
 */
import type { BaseTwistIntent, Intent, JointTrajectoryIntent } from '@pentagate/protocol';
import type { CompiledProfile } from '../profile/compiled-profile.js';

export interface JointPlan {
  kind: 'joint';
  intent: JointTrajectoryIntent;
  /**
   * Target positions per point, profile joint order, rad. Read-only: when the intent already lists the joints
   * in profile order these are the intent's own arrays, not copies.
   */
  targetsRad: readonly (readonly number[])[];
  /** timeFromStart per point, ms (strictly increasing, first > 0; a start point at 0 is startPoint). */
  timesMs: readonly number[];
  /**
   * The intent's first point when it sits at timeFromStart 0 (profile order): the start state, as MoveIt puts
   * it first in every planned trajectory and joint_trajectory_controller commands it at once. It is not one of
   * the points above (no time passes to reach it): INVARIANT requires it to be the measured position.
   */
  startPoint?: { positionsRad: readonly number[]; effortsNm?: readonly number[] };
  /** Planned velocities per point (profile order), when the intent gives them. */
  velocitiesRadS: readonly (readonly number[])[] | undefined;
  /** Planned efforts per point (profile order), when the intent gives them. */
  effortsNm: readonly (readonly number[])[] | undefined;
  durationMs: number;
}

export interface TwistPlan {
  kind: 'twist';
  intent: BaseTwistIntent;
  durationMs: number;
}

export type MotionPlan = JointPlan | TwistPlan;

/** `values` in profile order; `order` undefined means they already are (the usual case: no copy). */
function reorder(values: readonly number[], order: readonly number[] | undefined): readonly number[] {
  return order ? order.map((i) => values[i]!) : values;
}

function planJoints(intent: JointTrajectoryIntent, cp: CompiledProfile): MotionPlan | string {
  const names = cp.profile.joints.map((j) => j.name);
  const unknown = intent.jointNames.find((n) => !cp.jointIndex.has(n));
  if (unknown !== undefined)
    return `joint ${JSON.stringify(unknown)} is not in the profile (${names.join(', ')})`;
  if (intent.jointNames.length !== names.length) {
    return `expected all ${names.length} joints of the profile, got ${intent.jointNames.length}`;
  }
  const indices = names.map((n) => intent.jointNames.indexOf(n));
  const order = indices.every((at, k) => at === k) ? undefined : indices;
  const n = names.length;
  let previousMs = 0;
  // A first point at 0 is the start state (JointPlan.startPoint); after it, times increase strictly from 0.
  const startAtZero = intent.points.length > 1 && intent.points[0]!.timeFromStartMs === 0;
  for (let i = 0; i < intent.points.length; i++) {
    const p = intent.points[i]!;
    const wrong =
      p.positionsRad.length !== n
        ? (['positionsRad', p.positionsRad.length] as const)
        : p.velocitiesRadS !== undefined && p.velocitiesRadS.length !== n
          ? (['velocitiesRadS', p.velocitiesRadS.length] as const)
          : p.effortsNm !== undefined && p.effortsNm.length !== n
            ? (['effortsNm', p.effortsNm.length] as const)
            : undefined;
    if (wrong) return `points[${i}].${wrong[0]}: expected ${n} values, got ${wrong[1]}`;
    if (p.timeFromStartMs <= previousMs && !(i === 0 && startAtZero)) {
      return `points[${i}].timeFromStartMs: expected > ${previousMs} (strictly increasing, after the start), got ${p.timeFromStartMs}`;
    }
    previousMs = p.timeFromStartMs;
  }
  const allHave = (field: 'velocitiesRadS' | 'effortsNm') =>
    intent.points.every((p) => p[field] !== undefined);
  const someHave = (field: 'velocitiesRadS' | 'effortsNm') =>
    intent.points.some((p) => p[field] !== undefined);
  for (const field of ['velocitiesRadS', 'effortsNm'] as const) {
    if (someHave(field) && !allHave(field)) return `${field}: expected on every point or on none`;
  }
  const first = intent.points[0]!;
  const points = startAtZero ? intent.points.slice(1) : intent.points;
  return {
    kind: 'joint',
    intent,
    targetsRad: points.map((p) => reorder(p.positionsRad, order)),
    timesMs: points.map((p) => p.timeFromStartMs),
    ...(startAtZero
      ? {
          startPoint: {
            positionsRad: reorder(first.positionsRad, order),
            ...(first.effortsNm ? { effortsNm: reorder(first.effortsNm, order) } : {}),
          },
        }
      : {}),
    velocitiesRadS: allHave('velocitiesRadS')
      ? points.map((p) => reorder(p.velocitiesRadS!, order))
      : undefined,
    effortsNm: allHave('effortsNm') ? points.map((p) => reorder(p.effortsNm!, order)) : undefined,
    durationMs: previousMs,
  };
}

/** The plan, or a sentence saying why the intent cannot be planned for this robot. */
export function planMotion(intent: Intent, cp: CompiledProfile): MotionPlan | string {
  if (intent.robotId !== cp.profile.robotId) {
    return `intent for robot ${intent.robotId}, this edge serves ${cp.profile.robotId}`;
  }
  if (intent.kind === 'joint-trajectory') {
    if (cp.profile.kind !== 'arm')
      return `a ${cp.profile.kind} takes base-twist intents, got joint-trajectory`;
    return planJoints(intent, cp);
  }
  if (cp.profile.kind !== 'mobile-base')
    return `an ${cp.profile.kind} takes joint-trajectory intents, got base-twist`;
  return { kind: 'twist', intent, durationMs: intent.durationMs };
}
