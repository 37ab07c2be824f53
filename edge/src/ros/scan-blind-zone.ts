/**
 * A range sensor is blind nearer than its declared minimum range (sensor_msgs/LaserScan `range_min`,
 * sensor_msgs/Range `min_range`). REP 117 ("Informational Distance Measurements") lets a driver report a person in
 * that zone as -Inf, as a finite value below the minimum, or, as pointcloud_to_laserscan does for any beam
 * without a point in range, as +Inf, the same value as "nothing there". So a scan that reads clear vouches only for
 * what lies between its minimum and maximum range, never for the zone inside its minimum.
 *
 * Up to BODY_BLIND_ZONE_M that zone is the sensor's own housing and the body it is mounted on, where no person can
 * stand (common 2-D lidars declare range_min 0.02–0.15 m). A wider blind zone (an aisle scanner configured with
 * range_min 1.0 m) can hide a person, who would then be inside any protective radius: the scan cannot support
 * a verdict, so it is skipped as `blind-zone`, its source goes stale and RISK fails closed. How large the
 * operating radius is does not matter: a person in the blind zone is inside it if the radius reaches past the
 * blind zone, and unseen inside it if it does not.
 */
import { MappingSkip } from './mapping-skip.js';

/** The widest blind zone taken to be the sensor's housing and mounting, m. */
export const BODY_BLIND_ZONE_M = 0.25;

/** Throws a `blind-zone` skip when the sensor's declared minimum range leaves room for a person. */
export function checkBlindZone(minRangeM: number, field: string): void {
  if (minRangeM <= BODY_BLIND_ZONE_M) return;
  throw new MappingSkip(
    'blind-zone',
    `${field} ${minRangeM} m: the sensor cannot see a person nearer than that (REP 117: such a person reads as a value below ${field}, -Inf or +Inf, +Inf being also "nothing there"), and a blind zone wider than ${BODY_BLIND_ZONE_M} m is no longer the sensor's own housing; the scan cannot vouch that the robot's surroundings are clear, so its source is treated as stale (RISK fails closed); lower ${field} in the driver (e.g. pointcloud_to_laserscan's range_min parameter) to the sensor's real minimum`,
  );
}
