/** How long a LaserScan took to measure, from its scan_time and time_increment (scan-duration.ts). */
import t from 'tap';
import { scanDurationMs } from '../../src/ros/scan-duration.js';

const T = 'sensor_msgs/msg/LaserScan';
const scan = (scanTimeS: number, timeIncrementS: number, rays: number) => ({
  scan_time: scanTimeS,
  time_increment: timeIncrementS,
  ranges: new Array<number>(rays).fill(1),
});

t.test(
  'the sweep from time_increment, scan_time when it is missing, the smaller of the two when both are given',
  async (t) => {
    t.equal(scanDurationMs(scan(0, 0.0001, 1001), T), 100);
    t.equal(scanDurationMs(scan(0, -0.0001, 1001), T), 100, 'a sweep the other way');
    t.equal(scanDurationMs(scan(0.1, 0, 1001), T), 100);
    // a 270° scanner at 40 Hz: 25 ms between scans, its last ray 18.75 ms after its first
    t.equal(scanDurationMs(scan(0.025, 0.0000260417, 721), T), 0.0000260417 * 720 * 1000);
    t.equal(
      scanDurationMs(scan(0.05, 0.001, 1001), T),
      50,
      'a time_increment past scan_time is not believed',
    );
    t.equal(scanDurationMs(scan(0, 0, 1001), T), 0, 'neither given: aged from the stamp');
    t.throws(() => scanDurationMs(scan(-0.1, 0, 10), T), { message: /scan_time -0.1 s is negative/ });
  },
);
