/**
 * The timing floor of a hardware-in-the-loop run. The edge judges two things by the wall clock: a telemetry
 * frame's age at arrival against its source's `maxAgeMs` (50 ms for the UR5e profile's joint states), and a
 * command's `validUntil` (`command.validForMs`, 150 ms for the UR5e) at the controller. The simulated robot
 * and controller are a JavaScript loop on the same machine as the edge, not a 500 Hz real-time controller:
 * on a loaded 2-core machine both processes get descheduled now and then — measured while other test suites
 * ran: simulator step gaps up to 250 ms, frames up to 360 ms old at the edge. The edge then, correctly,
 * stops the motion for stale data or the controller refuses an expired command, which is not what the
 * scenario is about.
 *
 * So the profile the edge is started with raises every source's `maxAgeMs` and `command.validForMs` to at
 * least the floor (default 400 ms), while the simulated robot keeps publishing at the rates the original
 * profile asks for (joint states every 10 ms). Scenarios about stale, missing or NaN data still have to
 * fail closed: a frozen or silent sensor goes stale after the raised maxAgeMs instead of the profile's, and
 * their timelines leave more than the floor between the fault and the move that must be refused.
 * `sim run --timing-floor 0` runs with the profile exactly as written.
 */
import type { RobotProfile } from '@pentagate/protocol';

export const DEFAULT_TIMING_FLOOR_MS = 400;

/** A copy of the profile with every maxAgeMs and command.validForMs at least `floorMs` (0 = unchanged). */
export function withTimingFloor(profile: RobotProfile, floorMs: number): RobotProfile {
  if (floorMs <= 0) return profile;
  return {
    ...profile,
    sources: profile.sources.map((s) => (s.maxAgeMs >= floorMs ? s : { ...s, maxAgeMs: floorMs })),
    command: { ...profile.command, validForMs: Math.max(profile.command.validForMs, floorMs) },
  };
}
