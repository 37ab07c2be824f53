/**
 * Reads the per-role overrides of ROS 2 bindings (`--bindings FILE`, YAML or JSON): what the robot profile
 * cannot say about a topic — its message type, the source it feeds, a LaserScan or PointCloud2 sector, a point
 * cloud's height band and self-return range, an Ackermann wheelbase, an intent topic's move class. Example:
 *
 *   proximity: { type: sensor_msgs/msg/LaserScan, source: proximity-front, sector: { minAngleRad: -1.2, maxAngleRad: 1.2 } }
 *   proximity360: { type: sensor_msgs/msg/PointCloud2, heightBand: { minZM: 0.1, maxZM: 1.9 }, minRangeM: 0.4 }
 *   intent: { type: ackermann_msgs/msg/AckermannDriveStamped, wheelbaseM: 2.7, moveClass: drive }
 *   pose: { type: nav_msgs/msg/Odometry, frameId: map }
 *
 * Every problem is reported with its path; unknown keys are refused (a typo must not silently widen a sector).
 */
import { InvalidInputError, describeValue } from '@pentagate/protocol';
import type { RosRoleOverride } from './ros-bindings.js';

const KEYS = new Set([
  'type',
  'source',
  'sector',
  'heightBand',
  'minRangeM',
  'wheelbaseM',
  'frameId',
  'moveClass',
  'safetyCritical',
  'twistDurationMs',
]);

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `{ [lo]: number, [hi]: number }` with both finite and no other key, or undefined. */
function finitePair<L extends string, H extends string>(
  v: unknown,
  lo: L,
  hi: H,
): Record<L | H, number> | undefined {
  if (!isObject(v) || Object.keys(v).length !== 2) return undefined;
  const a = v[lo];
  const b = v[hi];
  if (typeof a !== 'number' || typeof b !== 'number' || !Number.isFinite(a) || !Number.isFinite(b))
    return undefined;
  return { [lo]: a, [hi]: b } as Record<L | H, number>;
}

export function parseRoleOverrides(value: unknown, what: string): Record<string, RosRoleOverride> {
  const problems: string[] = [];
  const out: Record<string, RosRoleOverride> = {};
  if (!isObject(value))
    throw new InvalidInputError(
      `${what}: expected a mapping of role → override, got ${describeValue(value)}`,
    );
  for (const [role, raw] of Object.entries(value)) {
    if (!isObject(raw)) {
      problems.push(`${role}: expected a mapping, got ${describeValue(raw)}`);
      continue;
    }
    const o: RosRoleOverride = {};
    for (const [key, v] of Object.entries(raw)) {
      const at = `${role}.${key}`;
      if (!KEYS.has(key)) problems.push(`${at}: unknown key (expected one of ${[...KEYS].join(', ')})`);
      else if (
        (key === 'type' || key === 'source' || key === 'moveClass' || key === 'frameId') &&
        (typeof v !== 'string' || v.length === 0)
      ) {
        problems.push(`${at}: expected a non-empty string, got ${describeValue(v)}`);
      } else if (key === 'safetyCritical' && typeof v !== 'boolean')
        problems.push(`${at}: expected true or false, got ${describeValue(v)}`);
      else if (
        key === 'twistDurationMs' &&
        !(Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 3_600_000)
      ) {
        problems.push(`${at}: expected an integer 1..3600000 (ms), got ${describeValue(v)}`);
      } else if (key === 'sector') {
        const sector = finitePair(v, 'minAngleRad', 'maxAngleRad');
        if (sector) o.sector = sector;
        else
          problems.push(
            `${at}: expected { minAngleRad: number, maxAngleRad: number }, got ${describeValue(v)}`,
          );
      } else if (key === 'heightBand') {
        const band = finitePair(v, 'minZM', 'maxZM');
        if (band && band.minZM <= band.maxZM) o.heightBand = band;
        else {
          problems.push(
            `${at}: expected { minZM: number, maxZM: number } with minZM ≤ maxZM, got ${describeValue(v)}`,
          );
        }
      } else if (key === 'minRangeM' && !(Number.isFinite(v) && (v as number) >= 0)) {
        problems.push(`${at}: expected a distance ≥ 0 (m), got ${describeValue(v)}`);
      } else if (key === 'wheelbaseM' && !(Number.isFinite(v) && (v as number) > 0)) {
        problems.push(`${at}: expected a distance > 0 (m), got ${describeValue(v)}`);
      } else (o as Record<string, unknown>)[key] = v;
    }
    out[role] = o;
  }
  if (problems.length > 0) throw new InvalidInputError(`${what}: ${problems.join('; ')}`);
  return out;
}
