/**
 * The rule for a robot that starts inside a keep-out zone, or within the sweep's margin around it: it may
 * leave, or move along, but never deeper. Per checked point (a skeleton point of an arm, the centre of a
 * base), its signed depth in the zone (zone-depth.ts: penetration inside, minus the clearance outside) may not
 * rise more than DEEPER_TOLERANCE_M above the shallowest it has been on the path so far. A ratchet, not a
 * comparison with the start: a point that has come 3 cm out may not go 2 cm back in, just as a zone that is
 * left may not be re-entered. A point outside the margin is free to move while it stays outside it: its
 * ceiling is never below −marginM, and never above it for a point that was outside the margin (the tolerance
 * does not let it in), so it may come exactly as close as a point near an ordinary zone.
 *
 * Before this rule a zone holding the start was excused until the path left it: an arm resting 1 cm inside
 * the table zone was signed a move 18 cm deeper into it and back, and one parked in the margin could only move
 * if its first step took it past the margin. Spec §1.9 (INVARIANT, physical rule): "restricted spatial
 * coordinates must not be entered"; a robot already in them may only get out.
 *
 * One helper for the arm and the base sweeps, so they cannot drift apart.
 */

/**
 * How much deeper than its shallowest a point may go, m: floating-point round-off, and a point carried along
 * a zone's curved boundary (a sphere's) by an arc of a few samples. Far below a zone's minimum thickness.
 */
export const DEEPER_TOLERANCE_M = 0.001;

/** The shallowest depth seen so far for each (zone, checked point) of the zones a path started in. */
export class ZoneDepthRatchet {
  readonly #shallowestM: Float64Array;

  /**
   * `zones` × `points` entries. `marginM` is the sweep's margin around a zone (its inflation): a point at
   * least that far out is outside the zone as the sweep sees it.
   */
  constructor(
    zones: number,
    readonly points: number,
    readonly marginM: number,
  ) {
    this.#shallowestM = new Float64Array(zones * points);
  }

  /** Records the depth of point `p` in zone `z` at the start of the path. */
  start(z: number, p: number, depthM: number): void {
    this.#shallowestM[z * this.points + p] = depthM;
  }

  /**
   * How much deeper than allowed `depthM` takes point `p` in zone `z`, measured from its shallowest depth so
   * far (or the margin, if that is nearer the zone), m; 0 when within the ceiling. Does not record anything (a
   * stopping point is off the path).
   */
  wouldBeDeeperByM(z: number, p: number, depthM: number): number {
    const shallowestM = this.#shallowestM[z * this.points + p]!;
    const ceilingM = Math.max(shallowestM + DEEPER_TOLERANCE_M, -this.marginM);
    return depthM > ceilingM ? depthM - Math.max(shallowestM, -this.marginM) : 0;
  }

  /**
   * A path sample: as `wouldBeDeeperByM` (> 0 is a violation), and a sample within the tolerance is recorded,
   * so the path is held from then on to the shallowest depth it has reached.
   */
  deeperByM(z: number, p: number, depthM: number): number {
    const overM = this.wouldBeDeeperByM(z, p, depthM);
    const i = z * this.points + p;
    if (overM === 0 && depthM < this.#shallowestM[i]!) this.#shallowestM[i] = depthM;
    return overM;
  }
}
