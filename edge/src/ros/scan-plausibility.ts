/**
 * What a range message's own limits must look like before its ranges are read as metres and radians (REP 103:
 * SI units; sensor_msgs/LaserScan, sensor_msgs/Range). A driver that writes millimetres turns a person 500 mm
 * away into 500 "m", and one that writes degrees spreads a scan over hundreds of radians, so a beam ahead is
 * wrapped to a bearing outside the RISK sector: both were signed beside a person (outside review). Such a
 * message is skipped as `malformed`; its source goes stale and RISK fails closed.
 */
import { MappingSkip } from './mapping-skip.js';

/**
 * The farthest range any range sensor declares, m: long-range automotive lidars reach a few hundred metres.
 * A `range_max` above it is another unit (12 000 is 12 m in millimetres).
 */
export const MAX_PLAUSIBLE_RANGE_M = 1000;

/** Throws a `malformed` skip when `field` (a declared maximum range) is beyond any sensor's, m. */
export function checkRangeLimit(maxRangeM: number, field: string): void {
  if (maxRangeM <= MAX_PLAUSIBLE_RANGE_M) return;
  throw new MappingSkip(
    'malformed',
    `${field} ${maxRangeM} m is beyond any range sensor's (at most ${MAX_PLAUSIBLE_RANGE_M} m): are its ranges in millimetres? REP 103 wants metres`,
  );
}

const FULL_TURN_RAD = 2 * Math.PI;

/**
 * Throws a `malformed` skip when a scan's angles cannot be radians: `angle_min` beyond a full turn, or beams
 * spanning more than one turn (one beam of overlap allowed: a 360° scan may repeat its first bearing).
 */
export function checkScanAngles(
  angleMinRad: number,
  angleIncrementRad: number,
  beams: number,
  what: string,
): void {
  const spanRad = Math.abs(angleIncrementRad) * Math.max(0, beams - 1);
  if (Math.abs(angleMinRad) <= FULL_TURN_RAD && spanRad <= FULL_TURN_RAD + Math.abs(angleIncrementRad))
    return;
  throw new MappingSkip(
    'malformed',
    `${what}: angle_min ${angleMinRad} and ${beams} beams of angle_increment ${angleIncrementRad} span ${spanRad.toFixed(2)} rad, more than a full turn: are its angles in degrees? REP 103 wants radians`,
  );
}
