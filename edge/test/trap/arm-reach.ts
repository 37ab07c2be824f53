/**
 * The UR5e reaching forward over the table (the shoulder lift varied, the rest fixed), for tests that put the
 * arm at a given height above or inside the table-top zone (its top is z = −0.02 m).
 */
import { armSkeleton, dhTable, skeletonPoints } from '@pentagate/edge';
import type { RobotProfile } from '@pentagate/protocol';

/** The arm reaching forward at shoulder lift `liftRad`; a larger lift reaches lower. */
export const reach = (liftRad: number) => [0, liftRad, 1.571, -1.571, -1.571, 0];

export function armReach(profile: RobotProfile) {
  const table = dhTable(profile.joints.map((j) => j.dh));
  const skeleton = armSkeleton(table, profile.keepOut.minZoneThicknessM);
  /** The lowest z of any checked point of the arm at `q`, m. */
  const lowestZ = (q: number[]) => {
    const p = skeletonPoints(table, skeleton, q, new Float64Array(3 * skeleton.points));
    return Math.min(...Array.from({ length: skeleton.points }, (_, k) => p[3 * k + 2]!));
  };
  /** The shoulder lift at which the arm's lowest point is at `zM` (bisection; lower lifts reach less far). */
  const liftAt = (zM: number) => {
    let [lo, hi] = [-1.571, -0.071];
    for (let k = 0; k < 60; k++) {
      const mid = (lo + hi) / 2;
      if (lowestZ(reach(mid)) > zM) lo = mid;
      else hi = mid;
    }
    return lo;
  };
  return { lowestZ, liftAt };
}
