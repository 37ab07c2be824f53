/**
 * RISK (ARCHITECTURE.md §3): no motion while a human is inside the operating radius — always, with no speed cap
 * (a running motion is stopped). When the profile enables speed and separation monitoring, a human outside
 * the radius but nearer than the protective separation distance S_p of ISO/TS 15066 (separation-distance.ts)
 * gets a speed cap where a slower speed satisfies S_p (`speedScale` in the evidence and on the command), and a
 * veto where none does. S_p is computed for the motion's own peak Cartesian speed from forward kinematics
 * (plan-speed.ts), not for one constant: a fast move needs more room than a slow one. Stale or missing
 * proximity data counts as a human present.
 *
 * Codes: RISK.HUMAN_IN_RADIUS, RISK.SEPARATION, RISK.STALE_DATA, RISK.MISSING_DATA.
 */
import { type GateResult, type ProximityFrame, edgeViolation } from '@pentagate/protocol';
import type { FreshFrame } from '../telemetry/telemetry-store.js';
import { type GateContext, describeFrame, fmt, fmtAgainst, freshFrame, result } from './gate-context.js';
import { planPeakSpeedMps } from './plan-speed.js';
import { maxSpeedScaleFor, protectiveSeparationDistanceM } from './separation-distance.js';

const V = 'RISK' as const;

export interface RiskOptions {
  /** During a motion: the speed cap the running command was signed with; S_p is checked at that speed. */
  runningSpeedScale?: number;
  /** During a motion: the plan's peak speed as computed when it was signed (GateContext.planPeakSpeedMps). */
  runningPeakSpeedMps?: number;
}

export function riskGate(ctx: GateContext, options: RiskOptions = {}): GateResult {
  const violations: string[] = [];
  const { profile } = ctx.cp;
  let nearest: FreshFrame<ProximityFrame> | undefined;
  let anyFrame = false;
  if (ctx.cp.proximitySources.length === 0) freshFrame(ctx, V, undefined, 'proximity', violations);
  for (const source of ctx.cp.proximitySources) {
    const f = freshFrame<ProximityFrame>(ctx, V, source, 'proximity', violations);
    if (!f) continue;
    anyFrame = true;
    const d = f.frame.nearestHumanM;
    if (d !== null && (nearest === undefined || d < (nearest.frame.nearestHumanM as number))) nearest = f;
  }
  const evidence: Record<string, unknown> = {
    nearestHumanM: nearest?.frame.nearestHumanM ?? null,
    nearestSource: nearest?.frame.source ?? null,
    ssmEnabled: profile.risk.ssm.enabled,
  };
  if (violations.length > 0 || !anyFrame) {
    evidence.speedScale = 0;
    return result(V, violations, evidence);
  }
  const distanceM = nearest ? (nearest.frame.nearestHumanM as number) : Number.POSITIVE_INFINITY;
  evidence.operatingRadiusM = profile.risk.operatingRadiusM;
  // ARCHITECTURE.md §3 RISK: "no execution when the proximity sensor detects a human in the operating radius".
  // This holds with or without SSM, when deciding and while monitoring: a speed cap is never offered inside
  // the radius (ISO/TS 15066 SSM slows the robot for people it may approach, not for people already in its reach).
  // The radius bounds a closed disc: a person exactly at it is in it (fail closed on the boundary).
  if (nearest && distanceM <= profile.risk.operatingRadiusM) {
    const [at, radius] = fmtAgainst(distanceM, profile.risk.operatingRadiusM);
    const relation = distanceM < profile.risk.operatingRadiusM ? '<' : '=';
    violations.push(
      edgeViolation(
        'RISK.HUMAN_IN_RADIUS',
        `human at ${at} m ${relation} radius ${radius} m (${describeFrame(nearest)})`,
      ),
    );
    evidence.speedScale = 0;
    return result(V, violations, evidence);
  }
  if (!profile.risk.ssm.enabled) {
    evidence.speedScale = 1;
    return result(V, violations, evidence);
  }
  const terms = { humanSpeedMps: ctx.cp.humanSpeedMps, ssm: profile.risk.ssm };
  // ISO/TS 15066 §5.5.4: v_r is the robot's speed toward the person — this motion's peak, from FK.
  const peakMps = options.runningPeakSpeedMps ?? planPeakSpeedMps(ctx);
  ctx.planPeakSpeedMps = peakMps;
  const planFraction = peakMps / profile.risk.ssm.robotSpeedMps;
  const fullSpM = protectiveSeparationDistanceM(terms, planFraction);
  evidence.planPeakSpeedMps = peakMps;
  evidence.protectiveSeparationM = fullSpM;
  if (options.runningSpeedScale !== undefined) {
    const spM = protectiveSeparationDistanceM(terms, planFraction * options.runningSpeedScale);
    evidence.speedScale = options.runningSpeedScale;
    if (nearest && distanceM < spM) {
      const [at, sp] = fmtAgainst(distanceM, spM);
      violations.push(
        edgeViolation(
          'RISK.SEPARATION',
          `human at ${at} m < S_p ${sp} m at speed scale ${fmt(options.runningSpeedScale)} (${describeFrame(nearest)})`,
        ),
      );
    }
    return result(V, violations, evidence);
  }
  const k = nearest ? maxSpeedScaleFor(terms, distanceM, planFraction) : 1;
  if (k === undefined || k < ctx.cp.minSpeedScale) {
    const spMin = protectiveSeparationDistanceM(terms, planFraction * ctx.cp.minSpeedScale);
    const [at, sp] = fmtAgainst(distanceM, spMin);
    violations.push(
      edgeViolation(
        'RISK.SEPARATION',
        `human at ${at} m < S_p ${sp} m even at the minimum speed scale ${fmt(ctx.cp.minSpeedScale)} (plan peak ${fmt(peakMps)} m/s, S_p at full speed ${fmt(fullSpM)} m; ${nearest ? describeFrame(nearest) : ''})`,
      ),
    );
    evidence.speedScale = 0;
    return result(V, violations, evidence);
  }
  evidence.speedScale = k;
  ctx.speedScale = k;
  return result(V, violations, evidence);
}
