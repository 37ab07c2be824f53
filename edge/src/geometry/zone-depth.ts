/**
 * How deep a point is inside a keep-out zone, signed: the distance to the zone's boundary, positive inside
 * the zone as drawn and negative outside (minus the clearance). The sweeps (joint-path-sweep.ts,
 * base-path-sweep.ts) use it for a robot that starts inside a zone or its margin: such a move may not take
 * any checked point deeper (zone-depth-ratchet.ts), so it can only leave or move along.
 *
 * Exact Euclidean distances: a box is a right prism with a rectangular section, and for a right prism the
 * depth is that of the section (in the plane) combined with that of the height interval. Both functions are
 * 1-Lipschitz (a point moved by d changes its depth by at most d), which is what bounds the depth between
 * two samples of a path.
 */
import type { KeepOutZone, PrismZone } from '@pentagate/protocol';
import { pointInPolygon } from './keep-out-zone.js';

/** Distance from (px, py) to the boundary of a polygon, m. */
function polygonBoundaryDistanceM(px: number, py: number, polygon: PrismZone['polygonM']): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i]!;
    const b = polygon[j]!;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len2 = dx * dx + dy * dy;
    const u = len2 > 0 ? Math.max(0, Math.min(1, ((px - a.x) * dx + (py - a.y) * dy) / len2)) : 0;
    const d = Math.hypot(a.x + u * dx - px, a.y + u * dy - py);
    if (d < best) best = d;
  }
  return best;
}

/** Signed depth of (px, py) in the zone's horizontal section (its widest, for a sphere), m. */
export function planarDepthM(zone: KeepOutZone, px: number, py: number): number {
  switch (zone.shape) {
    case 'box': {
      const inX = Math.min(px - zone.minM.x, zone.maxM.x - px);
      const inY = Math.min(py - zone.minM.y, zone.maxM.y - py);
      return combinedDepthM(inX, inY);
    }
    case 'sphere':
      return zone.radiusM - Math.hypot(px - zone.centerM.x, py - zone.centerM.y);
    case 'prism': {
      const d = polygonBoundaryDistanceM(px, py, zone.polygonM);
      return pointInPolygon(px, py, zone.polygonM) ? d : -d;
    }
  }
}

/**
 * The signed depth in the intersection of two slabs whose signed depths are `a` and `b` (orthogonal
 * directions): inside both, the nearer boundary; outside, the Euclidean distance to the corner or face.
 */
function combinedDepthM(a: number, b: number): number {
  if (a >= 0 && b >= 0) return Math.min(a, b);
  return -Math.hypot(Math.min(a, 0), Math.min(b, 0));
}

/** Signed depth of (px, py, pz) in `zone` as drawn, m: positive inside, minus the clearance outside. */
export function zoneDepthM(zone: KeepOutZone, px: number, py: number, pz: number): number {
  if (zone.shape === 'sphere') {
    return zone.radiusM - Math.hypot(px - zone.centerM.x, py - zone.centerM.y, pz - zone.centerM.z);
  }
  const [zMin, zMax] = zone.shape === 'box' ? [zone.minM.z, zone.maxM.z] : [zone.zMinM, zone.zMaxM];
  return combinedDepthM(planarDepthM(zone, px, py), Math.min(pz - zMin, zMax - pz));
}
