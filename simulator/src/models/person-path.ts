/**
 * A person walking a scripted path: waypoints with times; between them the person walks in a straight line at
 * constant speed, before the first one they stand at it, after the last they stay there. Positions are in the
 * robot's frame for an arm (the base frame) or the map frame for a mobile base, metres.
 */
export interface PathWaypoint {
  atMs: number;
  xM: number;
  yM: number;
}

export class PersonPath {
  readonly id: string;
  readonly waypoints: readonly PathWaypoint[];

  constructor(id: string, waypoints: readonly PathWaypoint[]) {
    if (waypoints.length === 0)
      throw new RangeError(`person ${id}: expected at least one waypoint, got none`);
    this.id = id;
    this.waypoints = [...waypoints].sort((a, b) => a.atMs - b.atMs);
  }

  positionAt(tMs: number): { xM: number; yM: number } {
    const w = this.waypoints;
    if (tMs <= w[0]!.atMs) return { xM: w[0]!.xM, yM: w[0]!.yM };
    for (let i = 1; i < w.length; i++) {
      const b = w[i]!;
      if (tMs <= b.atMs) {
        const a = w[i - 1]!;
        const f = b.atMs === a.atMs ? 1 : (tMs - a.atMs) / (b.atMs - a.atMs);
        return { xM: a.xM + f * (b.xM - a.xM), yM: a.yM + f * (b.yM - a.yM) };
      }
    }
    const last = w[w.length - 1]!;
    return { xM: last.xM, yM: last.yM };
  }

  /** Horizontal distance from the person to a point (the robot's base), m. */
  distanceM(tMs: number, fromX = 0, fromY = 0): number {
    const p = this.positionAt(tMs);
    return Math.hypot(p.xM - fromX, p.yM - fromY);
  }
}
