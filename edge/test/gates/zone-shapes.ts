/**
 * A keep-out zone of each shape (box, sphere, prism) from arbitraries of a coordinate and a size, m: the
 * property tests' zones, drawn by whichever arbitraries a test needs (sweep-arbitraries.ts, even-arbitraries.ts).
 */
import type { KeepOutZone } from '@pentagate/protocol';
import fc from 'fast-check';

/** `polygon(x, y, a)`: the prism's outline from its corner and size. */
export function zoneOfEachShape(
  coord: fc.Arbitrary<number>,
  size: fc.Arbitrary<number>,
  polygon: (x: number, y: number, a: number) => { x: number; y: number }[],
): fc.Arbitrary<KeepOutZone> {
  return fc.oneof(
    fc.tuple(coord, coord, coord, size, size, size).map(
      ([x, y, z, a, b, c]): KeepOutZone => ({
        id: 'box',
        shape: 'box',
        minM: { x, y, z },
        maxM: { x: x + a, y: y + b, z: z + c },
      }),
    ),
    fc
      .tuple(coord, coord, coord, size)
      .map(
        ([x, y, z, r]): KeepOutZone => ({ id: 'ball', shape: 'sphere', centerM: { x, y, z }, radiusM: r }),
      ),
    fc.tuple(coord, coord, coord, size, size).map(
      ([x, y, z, a, h]): KeepOutZone => ({
        id: 'prism',
        shape: 'prism',
        polygonM: polygon(x, y, a),
        zMinM: z,
        zMaxM: z + h,
      }),
    ),
  );
}
