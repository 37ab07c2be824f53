/**
 * How long a sensor_msgs/LaserScan took to measure. Its header.stamp is "the acquisition time of the first ray in
 * the scan" (the message definition), and the scanner publishes when its sweep is done, `scan_time` later (100 ms
 * at 10 Hz). Aged from the first ray, every scan is a sweep old on arrival and a 100–200 ms limit vetoes on
 * healthy timing; its data is complete at its last ray, so that is the scan's time: stamp + time_increment · (n − 1)
 * (the last ray's offset), or stamp + scan_time when the driver leaves time_increment 0. A negative scan_time is
 * `malformed` (a non-finite one `non-finite`); a duration that would put the last ray ahead of the clock is
 * refused as `future-stamp` by header-stamp.ts, so a wrong scan_time cannot make old data pass for new by more than the allowed skew.
 */
import { MappingSkip } from './mapping-skip.js';
import { type RosRecord, finiteNumber, numberArray } from './ros-fields.js';

const MS_PER_S = 1000;

/**
 * The time from the first to the last ray of a LaserScan, ms. With both fields given, the smaller: scan_time is
 * the period between scans, longer than the sweep for a scanner that does not see all round, and the older age
 * the smaller duration gives is the safe reading of two that disagree.
 */
export function scanDurationMs(msg: RosRecord, t: string): number {
  const scanTimeS = finiteNumber(msg, 'scan_time', t);
  if (scanTimeS < 0) throw new MappingSkip('malformed', `${t}.scan_time ${scanTimeS} s is negative`);
  // Scanners that sweep the other way write a negative time_increment: the last ray is as far from the first.
  const incrementS = Math.abs(finiteNumber(msg, 'time_increment', t));
  const rays = numberArray(msg, 'ranges', t).length;
  const sweepS = incrementS * Math.max(0, rays - 1);
  const durationS = scanTimeS > 0 && sweepS > 0 ? Math.min(scanTimeS, sweepS) : Math.max(scanTimeS, sweepS);
  return durationS * MS_PER_S;
}
