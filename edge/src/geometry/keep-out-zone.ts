/**
 * Point-in-zone tests for the three keep-out shapes (axis-aligned box, sphere, vertical prism), with an
 * inflation margin. Inflation makes the check conservative: the path sampler places samples no more than
 * `spacingM` apart along the path of every checked point, so every point of the continuous path lies within
 * `spacingM / 2` of a sample; inflating each zone by that much (plus the robot's own radius, for a mobile base)
 * means no path point can be inside a zone while every sample is outside it.
 * A box is inflated per axis (a superset of its Minkowski sum with a ball, so still conservative).
 */
import type { KeepOutZone, PrismZone } from '@pentagate/protocol';

/** Distance from (px, py) to the segment (ax, ay)–(bx, by), m. */
function distanceToSegmentM(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let u = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  u = Math.max(0, Math.min(1, u));
  const ex = ax + u * dx - px;
  const ey = ay + u * dy - py;
  return Math.sqrt(ex * ex + ey * ey);
}

/** Even-odd ray casting (W. R. Franklin's PNPOLY). */
export function pointInPolygon(px: number, py: number, polygon: PrismZone['polygonM']): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i]!;
    const b = polygon[j]!;
    if (a.y > py !== b.y > py && px < ((b.x - a.x) * (py - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

function inPrism(z: PrismZone, px: number, py: number, pz: number, inflateM: number): boolean {
  if (pz < z.zMinM - inflateM || pz > z.zMaxM + inflateM) return false;
  if (pointInPolygon(px, py, z.polygonM)) return true;
  if (inflateM <= 0) return false;
  const poly = z.polygonM;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i]!;
    const b = poly[j]!;
    if (distanceToSegmentM(px, py, a.x, a.y, b.x, b.y) <= inflateM) return true;
  }
  return false;
}

/** Axis-aligned bounds of a zone, m: [minX, minY, minZ, maxX, maxY, maxZ]. Cached per zone object. */
const boundsCache = new WeakMap<KeepOutZone, Float64Array>();

export function zoneBoundsM(zone: KeepOutZone): Float64Array {
  let b = boundsCache.get(zone);
  if (b) return b;
  if (zone.shape === 'box') {
    b = Float64Array.of(zone.minM.x, zone.minM.y, zone.minM.z, zone.maxM.x, zone.maxM.y, zone.maxM.z);
  } else if (zone.shape === 'sphere') {
    const { x, y, z } = zone.centerM;
    const r = zone.radiusM;
    b = Float64Array.of(x - r, y - r, z - r, x + r, y + r, z + r);
  } else {
    const xs = zone.polygonM.map((p) => p.x);
    const ys = zone.polygonM.map((p) => p.y);
    b = Float64Array.of(
      Math.min(...xs),
      Math.min(...ys),
      zone.zMinM,
      Math.max(...xs),
      Math.max(...ys),
      zone.zMaxM,
    );
  }
  boundsCache.set(zone, b);
  return b;
}

/** True when (px, py, pz), in metres, is inside `zone` grown by `inflateM` metres. */
export function pointInZone(zone: KeepOutZone, px: number, py: number, pz: number, inflateM = 0): boolean {
  // Broad phase: outside the inflated bounding box means outside the zone (the common case on a clear path).
  const b = zoneBoundsM(zone);
  if (
    px < b[0]! - inflateM ||
    py < b[1]! - inflateM ||
    pz < b[2]! - inflateM ||
    px > b[3]! + inflateM ||
    py > b[4]! + inflateM ||
    pz > b[5]! + inflateM
  ) {
    return false;
  }
  return pointInZoneShape(zone, px, py, pz, inflateM);
}

/**
 * True when a ground base's footprint at (px, py), grown by `inflateM` metres, meets `zone` at any height. A base
 * stands on the floor and occupies the column over its footprint whatever height its pose reports (a localizer's
 * map-frame z: Autoware's maps carry elevations tens of metres up, 3-D SLAM drifts in z), so the zone is tested
 * at a height inside it, which makes the test planar: the inflated zone's horizontal section there is its
 * widest (a box's and a prism's are all alike; a sphere's is at its centre). A zone above the base still counts:
 * over-reporting only stops the robot.
 */
export function footprintInZone(zone: KeepOutZone, px: number, py: number, inflateM = 0): boolean {
  const b = zoneBoundsM(zone);
  return pointInZone(zone, px, py, (b[2]! + b[5]!) / 2, inflateM);
}

/**
 * The exact shape test of `pointInZone` without its bounding-box broad phase, for callers that have already
 * tested the inflated bounds (the path sweeps keep them in one flat array).
 */
export function pointInZoneShape(
  zone: KeepOutZone,
  px: number,
  py: number,
  pz: number,
  inflateM: number,
): boolean {
  switch (zone.shape) {
    case 'box':
      return (
        px >= zone.minM.x - inflateM &&
        px <= zone.maxM.x + inflateM &&
        py >= zone.minM.y - inflateM &&
        py <= zone.maxM.y + inflateM &&
        pz >= zone.minM.z - inflateM &&
        pz <= zone.maxM.z + inflateM
      );
    case 'sphere': {
      const dx = px - zone.centerM.x;
      const dy = py - zone.centerM.y;
      const dz = pz - zone.centerM.z;
      const r = zone.radiusM + inflateM;
      return dx * dx + dy * dy + dz * dz <= r * r;
    }
    case 'prism':
      return inPrism(zone, px, py, pz, inflateM);
  }
}

/**
 * Inflated bounding boxes of `zones`, six numbers per zone (minX, minY, minZ, maxX, maxY, maxZ), m: the broad
 * phase of `pointInZone` for every zone in one flat array.
 */
export function inflatedBoundsM(zones: readonly KeepOutZone[], inflateM: number): Float64Array {
  const out = new Float64Array(6 * zones.length);
  for (let z = 0; z < zones.length; z++) {
    const b = zoneBoundsM(zones[z]!);
    for (let k = 0; k < 3; k++) {
      out[6 * z + k] = b[k]! - inflateM;
      out[6 * z + 3 + k] = b[3 + k]! + inflateM;
    }
  }
  return out;
}

/** Euclidean distance from a point to box `z` of `bounds` (0 inside or on it), m. */
export function distanceToBoundsM(
  bounds: Float64Array,
  z: number,
  px: number,
  py: number,
  pz: number,
): number {
  const o = 6 * z;
  const dx = Math.max(bounds[o]! - px, 0, px - bounds[o + 3]!);
  const dy = Math.max(bounds[o + 1]! - py, 0, py - bounds[o + 4]!);
  const dz = Math.max(bounds[o + 2]! - pz, 0, pz - bounds[o + 5]!);
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}
