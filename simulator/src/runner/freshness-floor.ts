/**
 * The freshness floor of a hardware-in-the-loop run. The edge judges a telemetry frame by its arrival time
 * against the source's `maxAgeMs` (50 ms for the UR5e profile's joint states). The simulated robot is a
 * JavaScript loop on the same machine as the edge, not a 500 Hz controller: on a loaded 2-core machine both
 * processes get descheduled for 50–140 ms now and then (measured while other test suites ran), and the edge
 * then — correctly — stops the motion for stale joint states, which is not what the scenario is about.
 *
 * So the profile the edge is started with raises every source's `maxAgeMs` to at least the floor (default
 * 250 ms), while the simulated robot keeps publishing at the rates the original profile asks for (joint
 * states every 10 ms). The scenarios about stale and missing data still fail closed: a frozen or silent
 * sensor goes stale after the raised maxAgeMs instead of the profile's. `--freshness-floor 0` runs with the
 * profile exactly as written.
 */
import type { RobotProfile } from '@pentagate/protocol';

export const DEFAULT_FRESHNESS_FLOOR_MS = 250;

/** A copy of the profile with every source's maxAgeMs at least `floorMs` (0 = unchanged). */
export function withFreshnessFloor(profile: RobotProfile, floorMs: number): RobotProfile {
  if (floorMs <= 0) return profile;
  return {
    ...profile,
    sources: profile.sources.map((s) => (s.maxAgeMs >= floorMs ? s : { ...s, maxAgeMs: floorMs })),
  };
}
