/**
 * Protective separation distance for speed and separation monitoring, ISO/TS 15066:2016 §5.5.4, eq. (1):
 *
 *   S_p = S_h + S_r + S_s + C + Z_d + Z_r
 *   S_h = v_h · (T_r + T_s)   distance the human covers while the robot reacts and stops      [m]
 *   S_r = v_r · T_r            distance the robot covers during the reaction time             [m]
 *   S_s                        robot stopping distance                                        [m]
 *   C                          intrusion distance (ISO 13855)                                  [m]
 *   Z_d, Z_r                   position uncertainty of the human sensing and of the robot     [m]
 *
 * Slowing the robot to a fraction k of its speed (a speed cap), with constant deceleration, scales
 * v_r → k·v_r, T_s → k·T_s and S_s → k²·S_s, so
 *
 *   S_p(k) = S_s·k² + (v_h·T_s + v_r·T_r)·k + (v_h·T_r + C + Z_d + Z_r).
 *
 * The profile gives v_r, T_s and S_s at the robot's rated full speed (`robotSpeedMps`). A motion whose own
 * peak Cartesian speed is v_p (peak-cartesian-speed.ts, from forward kinematics) runs at the fraction
 * f = v_p / v_r of it — f may exceed 1 when the joint limits allow more than the rated speed, and then T_s and
 * S_s grow by the same constant-deceleration law. A speed cap s on that motion is the fraction k = f·s.
 * The largest s with S_p(f·s) ≤ d comes from the positive root of the quadratic; RISK offers it, rounded down
 * to 0.01, as a signed speed cap when it is at least the profile's minimum.
 */
import type { SsmParameters } from '@pentagate/protocol';

export interface SsmTerms {
  humanSpeedMps: number;
  ssm: SsmParameters;
}

/** S_p at speed fraction k, m. */
export function protectiveSeparationDistanceM(t: SsmTerms, k = 1): number {
  const { ssm } = t;
  return (
    t.humanSpeedMps * (ssm.reactionTimeS + k * ssm.stoppingTimeS) +
    k * ssm.robotSpeedMps * ssm.reactionTimeS +
    k * k * ssm.stoppingDistanceM +
    ssm.intrusionDistanceM +
    ssm.humanPositionUncertaintyM +
    ssm.robotPositionUncertaintyM
  );
}

/**
 * The largest speed cap s ∈ [0, 1], in steps of 0.01, with S_p(planFraction · s) ≤ distanceM; undefined if
 * none > 0. `planFraction` = the motion's peak speed / the rated `robotSpeedMps` (1: the rated speed).
 */
export function maxSpeedScaleFor(t: SsmTerms, distanceM: number, planFraction = 1): number | undefined {
  if (protectiveSeparationDistanceM(t, planFraction) <= distanceM) return 1;
  const { ssm } = t;
  const a = ssm.stoppingDistanceM;
  const b = t.humanSpeedMps * ssm.stoppingTimeS + ssm.robotSpeedMps * ssm.reactionTimeS;
  const c = protectiveSeparationDistanceM(t, 0);
  if (c > distanceM) return undefined;
  // Largest rated fraction k with S_p(k) ≤ d; the cap on this motion is k / planFraction.
  const root =
    a > 0
      ? (-b + Math.sqrt(b * b + 4 * a * (distanceM - c))) / (2 * a)
      : b > 0
        ? (distanceM - c) / b
        : Number.POSITIVE_INFINITY;
  let s = Math.floor(Math.min(1, root / planFraction) * 100) / 100;
  // Rounding can only lower s, but guard the float edge so the cap we sign always satisfies S_p ≤ d.
  while (s > 0 && protectiveSeparationDistanceM(t, planFraction * s) > distanceM) {
    s = Math.round((s - 0.01) * 100) / 100;
  }
  return s > 0 ? s : undefined;
}
