/**
 * What a valid profile's speed and separation monitoring will do with the arm it describes (ISO/TS 15066:2016
 * §5.5.4): warnings that `edge check` prints and `edge run` logs. They do not make the profile invalid —
 * RISK computes the separation distance from each plan's own peak speed and caps or vetoes what does not fit —
 * but they tell the integrator where the profile's assumptions and the arm's limits part ways.
 */
import type { ProfileProblem, RobotProfile } from '@pentagate/protocol';
import { jointLimitFlangeSpeedMps } from '../kinematics/joint-limit-speed.js';
import { DEFAULT_HUMAN_SPEED_MPS } from './compiled-profile.js';
import { protectiveSeparationDistanceM } from '../gates/separation-distance.js';

const f2 = (x: number) => x.toFixed(2);

export function ssmWarnings(profile: RobotProfile): ProfileProblem[] {
  const ssm = profile.risk.ssm;
  if (!ssm.enabled || profile.kind !== 'arm' || profile.joints.length === 0) return [];
  const out: ProfileProblem[] = [];
  const flangeMps = jointLimitFlangeSpeedMps(profile);
  const terms = { humanSpeedMps: ssm.humanSpeedMps ?? DEFAULT_HUMAN_SPEED_MPS, ssm };
  const atLimitsM = protectiveSeparationDistanceM(terms, flangeMps / ssm.robotSpeedMps);
  const ratedM = protectiveSeparationDistanceM(terms, 1);
  if (flangeMps > ssm.robotSpeedMps) {
    out.push({
      path: 'risk.ssm.robotSpeedMps',
      message:
        `the joint velocity limits let the flange reach about ${f2(flangeMps)} m/s, above the rated ` +
        `${f2(ssm.robotSpeedMps)} m/s the stopping time and distance are given for; RISK extrapolates them by ` +
        'constant deceleration (T_s ∝ v, S_s ∝ v²) — measure them at the fastest speed the safety configuration allows',
    });
  }
  if (atLimitsM > profile.risk.operatingRadiusM) {
    out.push({
      path: 'risk.operatingRadiusM',
      message:
        `a move at the joint limits (${f2(flangeMps)} m/s) needs a protective separation of ${f2(atLimitsM)} m ` +
        `(ISO/TS 15066 eq. 1), more than the ${f2(profile.risk.operatingRadiusM)} m radius (S_p at the rated ` +
        `${f2(ssm.robotSpeedMps)} m/s: ${f2(ratedM)} m): RISK caps or vetoes such moves while a person is nearer ` +
        'than their S_p',
    });
  }
  return out;
}
