/**
 * The keep-out sweep of a running motion's remaining path, re-done at most every MONITOR_PATH_SWEEP_PERIOD_MS
 * (motion-monitor.ts). That path is [the measured state, the plan's next waypoint, …, its last], and only its
 * first segment depends on the measurement: the segment from the measured state to the next waypoint, and the
 * stopping point there (its velocity is that segment's mean when the plan gives none). From the next waypoint
 * on it is the plan's own path, the same on every re-check until that waypoint is passed. So the sweep is
 * split at the next waypoint: the first segment is swept every time (tens of samples), the plan's tail once per
 * waypoint (thousands for a long plan) and then reused. A long plan's re-check costs about 1/100 of a full
 * sweep this way, which keeps the edge's thread free for the proximity frame that must stop the robot.
 *
 * The split gives exactly the full sweep's result (hit, samples, start zones), because sweepJointPath works
 * sample by sample and the first segment's samples come first:
 * - a hit in the first segment is the full sweep's first hit, except 'not-left' (the start zone may be left
 *   later on the path), when the whole path is swept as before;
 * - so is a first segment that ends still in the margin of a start zone (`endZones`): the full sweep holds
 *   the rest of the path to the shallowest depth reached so far (zone-depth-ratchet.ts), which a tail swept
 *   from the next waypoint alone would not know;
 * - otherwise the next waypoint lies in no zone's margin (one not held since the start would be a path hit),
 *   so no zone is still occupied when the full sweep reaches it; the tail
 *   swept from that waypoint has no start zones either, and tests the same samples against every zone. Its
 *   hit is the full sweep's, one waypoint later (the tail's waypoint 0 is the path's 1), and the samples add
 *   up with the shared waypoint counted once.
 */
import { type JointSweepInput, type JointSweepResult, sweepJointPath } from './joint-path-sweep.js';

/** The tail sweeps of one running motion's plan, by how many plan waypoints remain. */
export class PlanTailSweeps {
  readonly #byRemaining = new Map<number, JointSweepResult>();
  /** What the cached sweeps were computed under (the compiled profile): another one clears them. */
  #under: object | undefined;
  #tailsSwept = 0;

  /** How many plan tails it has swept (the rest of its re-checks reused one): for diagnostics and tests. */
  get tailsSwept(): number {
    return this.#tailsSwept;
  }

  /**
   * The sweep of `input` (waypointsRad[0] the measured state, the rest the plan's remaining waypoints in
   * order, which only ever get fewer while the motion runs). `under` is what the zones, the kinematics and the
   * stopping time come from; a profile loaded since makes every cached tail stale.
   */
  sweep(under: object, input: JointSweepInput): JointSweepResult {
    const { waypointsRad, velocitiesRadS } = input;
    if (waypointsRad.length <= 2) return sweepJointPath(input);
    if (under !== this.#under) {
      this.#byRemaining.clear();
      this.#under = under;
    }
    const first = sweepJointPath({
      ...input,
      waypointsRad: waypointsRad.slice(0, 2),
      velocitiesRadS: velocitiesRadS.slice(0, 2),
    });
    if (first.hit?.kind === 'not-left' || (!first.hit && first.endZones.length > 0)) {
      return sweepJointPath(input);
    }
    if (first.hit) return first;
    const remaining = waypointsRad.length - 1;
    let tail = this.#byRemaining.get(remaining);
    if (!tail) {
      this.#tailsSwept++;
      tail = sweepJointPath({
        ...input,
        waypointsRad: waypointsRad.slice(1),
        velocitiesRadS: velocitiesRadS.slice(1),
      });
      // Waypoints passed never come back (the clock going back re-sweeps a longer tail, computed anew).
      for (const r of this.#byRemaining.keys()) if (r > remaining) this.#byRemaining.delete(r);
      this.#byRemaining.set(remaining, tail);
    }
    const samples = first.samples + tail.samples - 1;
    const zones = { startZones: first.startZones, startDepthsM: first.startDepthsM, endZones: tail.endZones };
    if (!tail.hit) return { samples, ...zones };
    return { hit: { ...tail.hit, waypoint: tail.hit.waypoint + 1 }, samples, ...zones };
  }
}
