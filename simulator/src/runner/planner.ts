/**
 * The simulated planner: turns a timeline step into a protocol Intent. A joint move is a straight line in
 * joint space from where the arm is, cut into `points` waypoints, each carrying the effort the arm model
 * predicts there (gravity holding torque, times `effortScale` for a payload the planner admits to). Without
 * planned efforts the edge would assume every joint at its torque limit and ask for consent on every move.
 */
import type { Intent } from '@pentagate/protocol';
import type { ArmModel } from '../models/arm-model.js';
import type { TimelineEvent } from '../scenarios/scenario-schema.js';

type IntentStep = NonNullable<TimelineEvent['intent']>;

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

export function planIntent(step: IntentStep, robotId: string, arm: ArmModel | undefined): Intent {
  const common = {
    v: 1 as const,
    intentId: step.id,
    robotId,
    ...(step.moveClass !== undefined ? { moveClass: step.moveClass } : {}),
    ...(step.safetyCritical !== undefined ? { safetyCritical: step.safetyCritical } : {}),
  };
  if (step.kind === 'twist') {
    return {
      ...common,
      kind: 'base-twist',
      linearMps: { x: step.linearMps, y: 0, z: 0 },
      angularRadS: { x: 0, y: 0, z: step.angularRadS },
      durationMs: step.durationMs,
    };
  }
  if (!arm) throw new RangeError(`intent ${step.id}: a joint move needs an arm, and this profile has none`);
  const start = arm.state.positionsRad;
  const n = step.points ?? 4;
  const scale = step.effortScale ?? 1;
  const points = Array.from({ length: n }, (_, k) => {
    const f = (k + 1) / n;
    const q = start.map((q0, j) => q0 + f * ((step.to[j] ?? q0) - q0));
    const gravity = arm.gravityTorquesNm(q);
    return {
      positionsRad: q.map((x) => round(x)),
      effortsNm: gravity.map((t) => round(t * scale, 2)),
      timeFromStartMs: Math.round(f * step.durationMs),
    };
  });
  return {
    ...common,
    kind: 'joint-trajectory',
    jointNames: arm.joints.map((j) => j.name),
    points,
  };
}
