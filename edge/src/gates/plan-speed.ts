/**
 * The peak Cartesian speed of the motion RISK judges (peak-cartesian-speed.ts): an arm's remaining waypoints
 * from its measured joint state, or a base's twist. Without a fresh joint state with velocities (INVARIANT vetoes
 * then anyway) the start segment is unknown, so the rated speed is taken if it is higher: never an optimistic figure.
 */
import { peakArmSpeedMps, peakBaseSpeedMps } from '../kinematics/peak-cartesian-speed.js';
import type { GateContext } from './gate-context.js';
import { measuredJointState } from './gate-context.js';
import { remainingWaypoints } from './invariant.js';

export function planPeakSpeedMps(ctx: GateContext): number {
  const { plan, cp } = ctx;
  if (plan.kind === 'twist') {
    return peakBaseSpeedMps(
      plan.intent.linearMps,
      plan.intent.angularRadS,
      cp.profile.base?.footprintRadiusM ?? 0,
    );
  }
  const state = measuredJointState(ctx, 'RISK', [], ['velocity']);
  if (state) {
    const w = remainingWaypoints(plan, state.positionsRad, state.velocitiesRadS, ctx.elapsedMs);
    return peakArmSpeedMps(cp.dhTable, w.waypointsRad, w.timesMs, w.velocitiesRadS);
  }
  const targets = plan.targetsRad.filter((_, i) => plan.timesMs[i]! > ctx.elapsedMs);
  const times = plan.timesMs.filter((t) => t > ctx.elapsedMs);
  const velocities = plan.velocitiesRadS?.filter((_, i) => plan.timesMs[i]! > ctx.elapsedMs) ?? [];
  return Math.max(cp.profile.risk.ssm.robotSpeedMps, peakArmSpeedMps(cp.dhTable, targets, times, velocities));
}
