/** Every warning about a valid profile, as `edge check` prints them and `edge run` logs them at start. */
import type { ProfileProblem, RobotProfile } from '@pentagate/protocol';
import { proximityRangeWarnings } from './proximity-range.js';
import { ssmWarnings } from './ssm-cross-check.js';

export function profileWarnings(profile: RobotProfile): ProfileProblem[] {
  return [...ssmWarnings(profile), ...proximityRangeWarnings(profile)];
}
