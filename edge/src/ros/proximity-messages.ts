/**
 * Proximity messages → the body of a proximity frame: sensor_msgs/LaserScan (nearest return in the sector,
 * scan-proximity.ts), sensor_msgs/Range (one reading) and sensor_msgs/PointCloud2 (nearest return in the sector
 * and height band, pointcloud-proximity.ts). A reading with no valid return is a `no-valid-return` skip, a cloud
 * whose layout cannot be read a `malformed` one, a scan or range whose minimum range leaves room for a person a
 * `blind-zone` one (scan-blind-zone.ts), and one whose limits are not in metres and radians a `malformed` one
 * (scan-plausibility.ts).
 */
import { MappingSkip } from './mapping-skip.js';
import {
  CloudLayoutError,
  type PointFieldInput,
  cloudAxes,
  nearestCloudReturn,
} from './pointcloud-proximity.js';
import type { RosTarget } from './ros-bindings.js';
import { ROS_TYPES } from './ros-types.js';
import { checkBlindZone } from './scan-blind-zone.js';
import { checkRangeLimit, checkScanAngles } from './scan-plausibility.js';
import {
  FieldProblem,
  type RosRecord,
  anyNumber,
  asRecord,
  byteArray,
  field,
  finiteNumber,
  headerFrameId,
  numberArray,
  text,
} from './ros-fields.js';
import { type ProximityReading, nearestScanReturn, rangeReading } from './scan-proximity.js';

type TelemetryTarget = Extract<RosTarget, { kind: 'telemetry' }>;

function laserScanReading(msg: RosRecord, t: string, target: TelemetryTarget): ProximityReading {
  const rangeMinM = finiteNumber(msg, 'range_min', t);
  checkBlindZone(rangeMinM, `${t}.range_min`);
  const rangeMaxM = finiteNumber(msg, 'range_max', t);
  checkRangeLimit(rangeMaxM, `${t}.range_max`);
  const scan = {
    angleMinRad: finiteNumber(msg, 'angle_min', t),
    angleIncrementRad: finiteNumber(msg, 'angle_increment', t),
    rangeMinM,
    rangeMaxM,
    rangesM: numberArray(msg, 'ranges', t),
  };
  checkScanAngles(scan.angleMinRad, scan.angleIncrementRad, scan.rangesM.length, t);
  return nearestScanReturn(scan, target.sector);
}

/** A uint32 field of a PointCloud2 or PointField. */
function count(record: RosRecord, name: string, what: string): number {
  const v = finiteNumber(record, name, what);
  if (!Number.isInteger(v) || v < 0 || v > 0xffff_ffff) {
    throw new FieldProblem('wrong-type', `${what}.${name}: expected a uint32, got ${v}`);
  }
  return v;
}

function pointFields(msg: RosRecord, t: string): PointFieldInput[] {
  const raw = field(msg, 'fields', t);
  if (!Array.isArray(raw)) throw new FieldProblem('wrong-type', `${t}.fields: expected an array`);
  return raw.map((f, i) => {
    const w = `${t}.fields[${i}]`;
    const r = asRecord(f, w);
    return {
      name: text(r, 'name', w),
      offset: count(r, 'offset', w),
      datatype: count(r, 'datatype', w),
      count: count(r, 'count', w),
    };
  });
}

function rangeMessageReading(msg: RosRecord, t: string): ProximityReading {
  const minRangeM = finiteNumber(msg, 'min_range', t);
  checkBlindZone(minRangeM, `${t}.min_range`);
  const maxRangeM = finiteNumber(msg, 'max_range', t);
  checkRangeLimit(maxRangeM, `${t}.max_range`);
  return rangeReading(anyNumber(msg, 'range', t), minRangeM, maxRangeM);
}

function pointCloudReading(msg: RosRecord, t: string, target: TelemetryTarget): ProximityReading {
  const isBigEndian = field(msg, 'is_bigendian', t);
  if (typeof isBigEndian !== 'boolean') {
    throw new FieldProblem('wrong-type', `${t}.is_bigendian: expected a bool, got ${typeof isBigEndian}`);
  }
  const cloud = {
    height: count(msg, 'height', t),
    width: count(msg, 'width', t),
    fields: pointFields(msg, t),
    isBigEndian,
    pointStep: count(msg, 'point_step', t),
    rowStep: count(msg, 'row_step', t),
    data: byteArray(msg, 'data', t),
    axes: cloudAxes(headerFrameId(msg, t)),
  };
  try {
    return nearestCloudReturn(cloud, target);
  } catch (err) {
    if (err instanceof CloudLayoutError) throw new MappingSkip('malformed', `${t}: ${err.message}`);
    throw err;
  }
}

export function proximityBody(msg: RosRecord, t: string, target: TelemetryTarget) {
  const reading =
    t === ROS_TYPES.laserScan
      ? laserScanReading(msg, t, target)
      : t === ROS_TYPES.pointCloud2
        ? pointCloudReading(msg, t, target)
        : rangeMessageReading(msg, t);
  if (reading.status === 'invalid') throw new MappingSkip('no-valid-return', reading.detail);
  if (reading.status === 'clear') return { kind: 'proximity' as const, nearestHumanM: null };
  return { kind: 'proximity' as const, nearestHumanM: reading.distanceM, sectorRad: reading.bearingRad };
}
