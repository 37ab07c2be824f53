/**
 * The nearest return of a sensor_msgs/LaserScan inside an angular sector, and the reading of a
 * sensor_msgs/Range, with the special values of REP 117 ("Informational Distance Measurements"):
 *   - a finite range inside [range_min, range_max] is a detection;
 *   - +Inf means no detection within range; it is ignored (and, if nothing else is seen, the sector is clear);
 *   - NaN means an erroneous or invalid measurement; it is ignored;
 *   - a finite value above range_max is invalid and ignored;
 *   - -Inf means a detection too close to quantify. REP 117 keeps it distinct from "nothing seen"; treating it
 *     as clear would hide a person touching the sensor, so it counts as a detection at 0 m (fail safe).
 *   - a finite value below range_min is, by REP 117, no valid measurement, but something answered nearer than
 *     the sensor can measure (a person inside its blind zone, or a driver's error code below range_min): it
 *     counts as a detection at its own value (at most range_min away; 0 m if negative), never as nothing (fail
 *     safe). Dropping it let a person 0.5 m from an aisle scanner with range_min 1.0 m read as clear.
 * What a scan cannot see at all (a person inside range_min read as +Inf) is scan-blind-zone.ts's concern.
 * A sector whose returns are all invalid (NaN or above range_max, no +Inf) says nothing: the reading is skipped,
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

function classify(
  r: number,
  minM: number,
  maxM: number,
): 'hit' | 'too-close' | 'below-min' | 'no-return' | 'invalid' {
  if (Number.isNaN(r)) return 'invalid';
  if (r === Number.POSITIVE_INFINITY) return 'no-return';
  if (r === Number.NEGATIVE_INFINITY) return 'too-close';
  if (r < minM) return 'below-min';
  return r <= maxM ? 'hit' : 'invalid';
}

type ReturnClass = ReturnType<typeof classify>;

/** The distance a return stands for, or undefined when it is no detection (REP 117, above). */
function detectedDistanceM(r: number, c: ReturnClass): number | undefined {
  if (c === 'hit') return r;
  if (c === 'too-close') return 0;
  if (c === 'below-min') return Math.max(0, r);
  return undefined;
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
    const distanceM = detectedDistanceM(r, c);
    if (distanceM === undefined) return;
    if (!best || distanceM < best.distanceM) best = { distanceM, bearingRad: wrapRad(bearingRad) };
  });
  if (best) return { status: 'detected', ...best };
  if (sawNoReturn) return { status: 'clear' };
  return {
    status: 'invalid',
    detail:
      inSectorCount === 0
        ? 'no beam of the scan falls inside the configured sector'
        : `all ${inSectorCount} returns in the sector are NaN or above range_max`,
  };
}

export function rangeReading(rangeM: number, minRangeM: number, maxRangeM: number): ProximityReading {
  const c = classify(rangeM, minRangeM, maxRangeM);
  const distanceM = detectedDistanceM(rangeM, c);
  if (distanceM !== undefined) return { status: 'detected', distanceM, bearingRad: 0 };
  if (c === 'no-return') return { status: 'clear' };
  return { status: 'invalid', detail: `range ${rangeM} is NaN or above max_range ${maxRangeM}` };
}
