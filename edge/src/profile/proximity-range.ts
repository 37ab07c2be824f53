/**
 * Proximity sources that name no measuring range (`maxRangeM`): the edge then cannot tell a reading in the
 * wrong unit from a far one — a person 500 mm away, sent as 500, reads as 500 m and RISK lets the move run.
 * A warning, not a problem: the profile stays valid, and frames are bounded by the schema's 10 km.
 */
import type { ProfileProblem, RobotProfile } from '@pentagate/protocol';

export function proximityRangeWarnings(profile: RobotProfile): ProfileProblem[] {
  const out: ProfileProblem[] = [];
  profile.sources.forEach((s, i) => {
    if (s.kind !== 'proximity' || s.maxRangeM !== undefined) return;
    out.push({
      path: `sources[${i}].maxRangeM`,
      message:
        `proximity source ${JSON.stringify(s.name)} names no measuring range: a reading in millimetres ` +
        '(500 for half a metre) would be taken as 500 m; set maxRangeM to the sensor’s range so such a reading is refused',
    });
  });
  return out;
}
