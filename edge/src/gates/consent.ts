/**
 * CONSENT (ARCHITECTURE.md §3): a move needs an operator-signed consent statement bound to this intent when its
 * peak planned joint effort exceeds the profile's `highTorqueThresholdNm` (unknown efforts count as the joint's
 * torque limit), when the planner marks it `safetyCritical`, or when its move class is listed as
 * safety-critical. The statement itself is verified by the EdgeGate (signature by an operator key, intent
 * digest, robot, validity window, single-use nonce); this gate says whether one is needed and whether one
 * was granted.
 *
 * The efforts a plan declares are the planner's word. While a move signed without consent runs, the measured
 * efforts are held to the same threshold (`measuredTorqueConsentGate`): a planner that declares low efforts for
 * a high-torque move (by mistake or to skip the operator) is stopped as soon as the joint states show it.
 *
 * Codes: CONSENT.REQUIRED, CONSENT.MEASURED_HIGH_TORQUE.
 */
import { type ConsentScope, type GateResult, edgeViolation } from '@pentagate/protocol';
import type { CompiledProfile } from '../profile/compiled-profile.js';
import { type GateContext, fmt, fmtOver, measuredJointState, result } from './gate-context.js';
import type { MotionPlan } from './motion-plan.js';

const V = 'CONSENT' as const;

export interface ConsentNeed {
  /** The scope a statement must carry; undefined when no consent is needed. */
  scope: ConsentScope | undefined;
  reasons: string[];
  peakEffortNm: number;
}

/** Whether (and why) a plan needs consent. `safety-critical` also covers high torque. */
export function consentNeed(cp: CompiledProfile, plan: MotionPlan): ConsentNeed {
  const policy = cp.profile.consent;
  const reasons: string[] = [];
  let peakEffortNm = 0;
  let highTorque = false;
  if (plan.kind === 'joint') {
    if (plan.effortsNm) {
      const start = plan.startPoint?.effortsNm;
      for (const efforts of start ? [start, ...plan.effortsNm] : plan.effortsNm)
        for (const e of efforts) peakEffortNm = Math.max(peakEffortNm, Math.abs(e));
    } else {
      for (const j of cp.profile.joints) peakEffortNm = Math.max(peakEffortNm, j.torqueLimitNm);
    }
    if (peakEffortNm > policy.highTorqueThresholdNm) {
      highTorque = true;
      reasons.push(
        `peak effort ${fmtOver(peakEffortNm, policy.highTorqueThresholdNm, 'N·m', 1, 'threshold')}${plan.effortsNm ? '' : ' (no planned efforts: torque limits assumed)'}`,
      );
    }
  }
  let critical = false;
  if (plan.intent.safetyCritical === true) {
    critical = true;
    reasons.push('the intent is marked safety-critical');
  }
  const moveClass = plan.intent.moveClass;
  if (moveClass !== undefined && policy.safetyCriticalMoveClasses.includes(moveClass)) {
    critical = true;
    reasons.push(`move class ${moveClass} is safety-critical`);
  }
  return {
    scope: critical ? 'safety-critical' : highTorque ? 'high-torque' : undefined,
    reasons,
    peakEffortNm,
  };
}

export function consentGate(ctx: GateContext): GateResult {
  const need = consentNeed(ctx.cp, ctx.plan);
  const violations: string[] = [];
  if (need.scope !== undefined && !ctx.consentGranted) {
    violations.push(
      edgeViolation('CONSENT.REQUIRED', `${need.scope} consent needed: ${need.reasons.join('; ')}`),
    );
  }
  return result(V, violations, {
    required: need.scope ?? null,
    granted: ctx.consentGranted,
    peakEffortNm: need.peakEffortNm,
  });
}

/**
 * For a move in progress that was signed without consent: every joint's measured effort must stay at or below
 * the high-torque threshold, or the move is one that needed consent after all. Joint states that are missing,
 * stale or without efforts are INVARIANT's to report (it needs the measured efforts too and fails closed).
 */
export function measuredTorqueConsentGate(ctx: GateContext): GateResult {
  const threshold = ctx.cp.profile.consent.highTorqueThresholdNm;
  const violations: string[] = [];
  if (ctx.plan.kind !== 'joint') return result(V, violations, { highTorqueThresholdNm: threshold });
  const state = measuredJointState(ctx, 'INVARIANT', [], ['effort']);
  let peakMeasuredNm = 0;
  ctx.cp.profile.joints.forEach((j, k) => {
    const measured = Math.abs(state?.effortsNm[k] ?? 0);
    peakMeasuredNm = Math.max(peakMeasuredNm, measured);
    if (measured > threshold) {
      violations.push(
        edgeViolation(
          'CONSENT.MEASURED_HIGH_TORQUE',
          `${j.name} measured ${fmtOver(measured, threshold, 'N·m', 1, 'high-torque threshold')} on a move signed without consent (planned peak ${fmt(consentNeed(ctx.cp, ctx.plan).peakEffortNm, 1)} N·m)`,
        ),
      );
    }
  });
  return result(V, violations, { highTorqueThresholdNm: threshold, peakMeasuredNm });
}
