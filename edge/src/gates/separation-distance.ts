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
 * The largest k with S_p(k) ≤ d is the positive root of that quadratic (clamped to 1). RISK offers it,
 * rounded down to 0.01, as a signed speed cap when it is at least the profile's minimum.
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

/** The largest speed fraction k ∈ [0, 1], in steps of 0.01, with S_p(k) ≤ distanceM; undefined if none > 0. */
export function maxSpeedScaleFor(t: SsmTerms, distanceM: number): number | undefined {
  if (protectiveSeparationDistanceM(t, 1) <= distanceM) return 1;
  const { ssm } = t;
  const a = ssm.stoppingDistanceM;
  const b = t.humanSpeedMps * ssm.stoppingTimeS + ssm.robotSpeedMps * ssm.reactionTimeS;
  const c = protectiveSeparationDistanceM(t, 0);
  if (c > distanceM) return undefined;
  const root =
    a > 0 ? (-b + Math.sqrt(b * b + 4 * a * (distanceM - c))) / (2 * a) : b > 0 ? (distanceM - c) / b : 1;
  let k = Math.floor(Math.min(1, root) * 100) / 100;
  // Rounding can only lower k, but guard the float edge so the cap we sign always satisfies S_p(k) ≤ d.
  while (k > 0 && protectiveSeparationDistanceM(t, k) > distanceM) k = Math.round((k - 0.01) * 100) / 100;
  return k > 0 ? k : undefined;
}
