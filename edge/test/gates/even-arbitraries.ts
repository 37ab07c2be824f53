/**
 * Evenly spread arbitraries for the keep-out property tests: whole millimetres (or milliradians) drawn
 * uniformly with fc.noBias. fc.double concentrates its draws near 0 and at the bounds, which leaves most of a
 * zone's inside and its margin untested.
 */
import type { KeepOutZone } from '@pentagate/protocol';
import fc from 'fast-check';
import { zoneOfEachShape } from './zone-shapes.js';

/** A length in [minMm, maxMm] millimetres, uniform, in metres. */
export const evenM = (minMm: number, maxMm: number): fc.Arbitrary<number> =>
  fc.noBias(fc.integer({ min: minMm, max: maxMm })).map((mm) => mm / 1000);

/** An angle in [minMrad, maxMrad] milliradians, uniform, in radians. */
export const evenRad = (minMrad: number, maxMrad: number): fc.Arbitrary<number> =>
  fc.noBias(fc.integer({ min: minMrad, max: maxMrad })).map((mrad) => mrad / 1000);

/** A zone of each shape (box, sphere, a non-convex prism) with its corner or centre in ±`spanMm`. */
export function evenZone(spanMm: number): fc.Arbitrary<KeepOutZone> {
  // An arrowhead: its notch makes the polygon non-convex.
  return zoneOfEachShape(evenM(-spanMm, spanMm), evenM(20, 600), (x, y, a) => [
    { x, y },
    { x: x + a, y: y + a / 2 },
    { x, y: y + a },
    { x: x + a / 3, y: y + a / 2 },
  ]);
}
