/**
 * What an operator needs to judge a move the CONSENT gate parked (issue: consent relay): the request the
 * edge posts to the cloud's approvals queue. The path is the tool (the last DH frame) at each planned point,
 * computed with the same forward kinematics the INVARIANT gate sweeps, so the operator sees the path the
 * gate checked against the keep-out zones, not one drawn by another model.
 */
import type { ConsentRequest, Intent, PathPoint } from '@pentagate/protocol';
import { frameOrigins } from '../kinematics/forward-kinematics.js';
import type { CompiledProfile } from '../profile/compiled-profile.js';
import { consentNeed } from './consent.js';
import type { MotionPlan } from './motion-plan.js';

export interface ParkedIntent {
  intent: Intent;
  plan: MotionPlan;
  sinceMs: number;
  deadlineMs: number;
}

const round = (v: number, places = 4) => Math.round(v * 10 ** places) / 10 ** places;

function toolPath(cp: CompiledProfile, plan: MotionPlan): PathPoint[] {
  if (plan.kind !== 'joint') return [];
  const n = cp.profile.joints.length;
  const origins = new Float64Array(3 * n);
  const last = 3 * (n - 1);
  return plan.targetsRad.map((q, i) => {
    frameOrigins(cp.dhTable, q, origins);
    return {
      xM: round(origins[last]!),
      yM: round(origins[last + 1]!),
      zM: round(origins[last + 2]!),
      tMs: plan.timesMs[i]!,
    };
  });
}

export function consentRequest(
  cp: CompiledProfile,
  intentDigest: string,
  parked: ParkedIntent,
): ConsentRequest {
  const need = consentNeed(cp, parked.plan);
  const moveClass = parked.intent.moveClass;
  return {
    v: 1,
    robotId: cp.profile.robotId,
    intentId: parked.intent.intentId,
    intentDigest,
    intent: parked.intent,
    // A parked intent always needs consent; 'high-torque' is the weaker scope, should the need have vanished.
    scope: need.scope ?? 'high-torque',
    reasons: need.reasons,
    ...(moveClass !== undefined ? { moveClass } : {}),
    peakEffortNm: round(need.peakEffortNm, 3),
    highTorqueThresholdNm: cp.profile.consent.highTorqueThresholdNm,
    torqueLimitsNm: cp.profile.joints.map((j) => j.torqueLimitNm),
    pathM: toolPath(cp, parked.plan),
    zones: cp.profile.keepOut.zones,
    requestedAtMs: parked.sinceMs,
    deadlineMs: parked.deadlineMs,
  };
}
