/**
 * The nearest return of a sensor_msgs/LaserScan inside an angular sector, and the reading of a
 * sensor_msgs/Range, with the special values of REP 117 ("Informational Distance Measurements"):
 *   - a finite range inside [range_min, range_max] is a detection;
 *   - +Inf means no detection within range; it is ignored (and, if nothing else is seen, the sector is clear);
 *   - NaN means an erroneous or invalid measurement; it is ignored;
 *   - a finite value outside [range_min, range_max] is invalid and ignored. Below range_min that is safe only
 *     because scan-blind-zone.ts refuses scans whose range_min is wider than the sensor's own housing; and it
 *     is needed, since drivers write "no return" there (0.0 from the TurtleBot3 LDS-01 and YDLIDAR drivers,
 *     urg_node's error codes of a few millimetres), which a detection reading would turn into a constant veto;
 *   - -Inf means a detection too close to quantify. REP 117 keeps it distinct from "nothing seen"; treating it
 *     as clear would hide a person touching the sensor, so it counts as a detection at 0 m (fail safe).
 * A sector whose returns are all invalid (NaN or out of range, no +Inf) says nothing: the reading is skipped,
 * the source goes stale, and RISK treats stale proximity as a human present.
 *
 * Every return is treated as a person: a scanner cannot tell a human from a shelf, and over-reporting only
 * stops the robot.
 */

export type ProximityReading =
  | { status: 'detected'; distanceM: number; bearingRad: number }
  | { status: 'clear' }
  | { status: 'invalid'; detail: string };

export interface ScanInput {
  angleMinRad: number;
  angleIncrementRad: number;
  rangeMinM: number;
  rangeMaxM: number;
  rangesM: readonly number[];
}

function classify(r: number, minM: number, maxM: number): 'hit' | 'too-close' | 'no-return' | 'invalid' {
  if (Number.isNaN(r)) return 'invalid';
  if (r === Number.POSITIVE_INFINITY) return 'no-return';
  if (r === Number.NEGATIVE_INFINITY) return 'too-close';
  return r >= minM && r <= maxM ? 'hit' : 'invalid';
}

/** Normalizes an angle into [-π, π). */
export function wrapRad(a: number): number {
  const twoPi = 2 * Math.PI;
  return a - twoPi * Math.floor((a + Math.PI) / twoPi);
}

/** Whether a bearing lies in the sector (no sector: everywhere); shared with pointcloud-proximity.ts. */
export function inSector(
  angleRad: number,
  sector: { minAngleRad: number; maxAngleRad: number } | undefined,
): boolean {
  if (!sector) return true;
  if (sector.maxAngleRad - sector.minAngleRad >= 2 * Math.PI) return true;
  const a = wrapRad(angleRad);
  const lo = wrapRad(sector.minAngleRad);
  const hi = wrapRad(sector.maxAngleRad);
  // A sector may straddle ±π (a rear sector from 2.6 to -2.6 rad).
  return lo <= hi ? a >= lo && a <= hi : a >= lo || a <= hi;
}

export function nearestScanReturn(
  scan: ScanInput,
  sector?: { minAngleRad: number; maxAngleRad: number },
): ProximityReading {
  let best: { distanceM: number; bearingRad: number } | undefined;
  let sawNoReturn = false;
  let inSectorCount = 0;
  scan.rangesM.forEach((r, i) => {
    const bearingRad = scan.angleMinRad + i * scan.angleIncrementRad;
    if (!inSector(bearingRad, sector)) return;
    inSectorCount += 1;
    const c = classify(r, scan.rangeMinM, scan.rangeMaxM);
    if (c === 'no-return') sawNoReturn = true;
    if (c !== 'hit' && c !== 'too-close') return;
    const distanceM = c === 'too-close' ? 0 : r;
    if (!best || distanceM < best.distanceM) best = { distanceM, bearingRad: wrapRad(bearingRad) };
  });
  if (best) return { status: 'detected', ...best };
  if (sawNoReturn) return { status: 'clear' };
  return {
    status: 'invalid',
    detail:
      inSectorCount === 0
        ? 'no beam of the scan falls inside the configured sector'
        : `all ${inSectorCount} returns in the sector are NaN or outside [range_min, range_max]`,
  };
}

export function rangeReading(rangeM: number, minRangeM: number, maxRangeM: number): ProximityReading {
  const c = classify(rangeM, minRangeM, maxRangeM);
  if (c === 'hit') return { status: 'detected', distanceM: rangeM, bearingRad: 0 };
  if (c === 'too-close') return { status: 'detected', distanceM: 0, bearingRad: 0 };
  if (c === 'no-return') return { status: 'clear' };
  return { status: 'invalid', detail: `range ${rangeM} is NaN or outside [${minRangeM}, ${maxRangeM}]` };
}
