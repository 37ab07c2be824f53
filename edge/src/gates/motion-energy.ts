/**
 * Energy and peak power of a planned motion, from the plan alone (no telemetry), so the ECONOMY gate and
 * its tests share one model.
 *
 * Arm: mechanical work W = Σ_segments Σ_joints |τ| · |Δq| (= ∫|τ·ω| dt for piecewise-constant effort), with τ
 * the larger planned |effort| at the segment's ends — or the joint's torque limit when the plan gives no
 * efforts (unknown effort is assumed to be the worst allowed). Peak mechanical power = max over segments of
 * Σ_joints |τ| · |Δq| / Δt · k (k = speed cap).
 * Base: W = m · g · C_rr · distance + P_turn · |ω| · T + ½ · m · v² (rolling resistance, turning, spin-up);
 * peak power = m · g · C_rr · v · k + P_turn · |ω| · k.
 * Electrical energy E = W / efficiency + P_idle · T / k, where T is the planned duration (the cap stretches it).
 */
import type { RobotProfile } from '@pentagate/protocol';
import type { MotionPlan } from './motion-plan.js';

export const STANDARD_GRAVITY_MPS2 = 9.80665;

export interface MotionEnergy {
  mechanicalJ: number;
  electricalWh: number;
  peakMechanicalW: number;
  durationS: number;
}

export function motionEnergy(
  profile: RobotProfile,
  plan: MotionPlan,
  startRad: readonly number[] | undefined,
  speedScale: number,
): MotionEnergy {
  const k = speedScale > 0 ? speedScale : 1;
  let mechanicalJ = 0;
  let peakMechanicalW = 0;
  if (plan.kind === 'joint') {
    const joints = profile.joints;
    let prevQ: readonly number[] = startRad ?? plan.targetsRad[0]!;
    let prevT = 0;
    plan.targetsRad.forEach((q, i) => {
      const dtS = (plan.timesMs[i]! - prevT) / 1000;
      let segmentJ = 0;
      joints.forEach((j, n) => {
        const tauNm = plan.effortsNm
          ? Math.max(Math.abs(plan.effortsNm[i]![n]!), Math.abs(plan.effortsNm[Math.max(0, i - 1)]![n]!))
          : j.torqueLimitNm;
        segmentJ += tauNm * Math.abs(q[n]! - prevQ[n]!);
      });
      mechanicalJ += segmentJ;
      peakMechanicalW = Math.max(peakMechanicalW, (segmentJ / dtS) * k);
      prevQ = q;
      prevT = plan.timesMs[i]!;
    });
  } else {
    const base = profile.base;
    const { linearMps, angularRadS } = plan.intent;
    const v = Math.hypot(linearMps.x, linearMps.y, linearMps.z);
    const w = Math.abs(angularRadS.z);
    const tS = plan.durationMs / 1000;
    if (base) {
      const rollingN = base.massKg * STANDARD_GRAVITY_MPS2 * base.rollingResistance;
      mechanicalJ = rollingN * v * tS + base.turnPowerWPerRadS * w * tS + 0.5 * base.massKg * v * v;
      peakMechanicalW = (rollingN * v + base.turnPowerWPerRadS * w) * k;
    }
  }
  const durationS = plan.durationMs / 1000 / k;
  const electricalWh =
    (mechanicalJ / profile.battery.efficiency + profile.battery.idlePowerW * durationS) / 3600;
  return { mechanicalJ, electricalWh, peakMechanicalW, durationS };
}
