/**
 * The nearest return of a sensor_msgs/PointCloud2 inside an angular sector and a height band, as a proximity
 * reading (the 3-D counterpart of scan-proximity.ts's LaserScan model).
 *
 * Layout, as sensor_msgs/PointCloud2 and PointField define it: `height` rows of `width` points; point (r, c)
 * starts at byte r·row_step + c·point_step of `data`; each field sits at its `offset` inside the point with its
 * `datatype` (PointField.FLOAT32 = 7, FLOAT64 = 8 are read; x, y and z must be one of them), in big-endian byte
 * order when `is_bigendian` is true. A layout that does not fit (a field past point_step, a row shorter than its
 * points, data shorter than its rows) is refused whole, never read out of bounds.
 *
 * Axes: the cloud's own frame is taken as the robot's (x forward, y left, z up: REP 103, as LaserScan's), except a
 * camera optical frame (REP 103 suffix frames: `header.frame_id` ending in `_optical` or `_optical_frame`, as depth
 * cameras publish their clouds), whose axes are z forward, x right, y down: its points are turned into body axes
 * (x = z_opt, y = −x_opt, z = −y_opt) before anything is judged. Read as body axes, an optical cloud puts a person
 * standing ahead at ±90° (outside a front sector: "clear") and measures the distance across the image, not to it.
 *
 * Which points count, in those axes:
 *   - a point with a NaN or infinite coordinate is no measurement (organized clouds mark "no return" with NaN);
 *   - a point at exactly (0, 0, 0) is no measurement either (some lidar drivers, e.g. Ouster's, write zeros
 *     where no echo came back; a real echo at the sensor's own origin cannot be measured);
 *   - points outside the height band, outside the sector (bearing atan2(y, x)) or nearer in the plane than
 *     `minRangeM` (returns off the robot's own body) are not looked at.
 * The distance is the planar one, hypot(x, y): how far a person stands from the sensor, whatever their height.
 * A cloud with no valid point at all says nothing about the sector (the reading is invalid, the source goes
 * stale, and RISK treats stale proximity as a human present); a cloud with valid points but none in the sector
 * and band is a clear sector. Every point is treated as a person, as for scans: over-reporting only stops the
 * robot.
 */
import type { HeightBand, ScanSector } from './ros-bindings.js';
import { type ProximityReading, inSector, wrapRad } from './scan-proximity.js';

/** PointField.datatype values (sensor_msgs/msg/PointField.msg). */
export const POINT_FIELD_DATATYPE = {
  INT8: 1,
  UINT8: 2,
  INT16: 3,
  UINT16: 4,
  INT32: 5,
  UINT32: 6,
  FLOAT32: 7,
  FLOAT64: 8,
} as const;

export interface PointFieldInput {
  name: string;
  /** Byte offset from the start of the point. */
  offset: number;
  datatype: number;
  count: number;
}

export interface PointCloudInput {
  height: number;
  width: number;
  fields: readonly PointFieldInput[];
  isBigEndian: boolean;
  /** Bytes per point. */
  pointStep: number;
  /** Bytes per row. */
  rowStep: number;
  data: Uint8Array;
  /** The axes of the cloud's frame: `body` (x forward, y left, z up) or a camera's `optical` (z forward, x right, y down). */
  axes: CloudAxes;
}

export type CloudAxes = 'body' | 'optical';

/** REP 103 suffix frames: a camera's optical frame is named `<camera frame>_optical` (`…_optical_frame` by most drivers). */
export function cloudAxes(frameId: string): CloudAxes {
  return /_optical(_frame)?$/.test(frameId) ? 'optical' : 'body';
}

export interface CloudFilter {
  sector?: ScanSector;
  heightBand?: HeightBand;
  /** Points nearer than this in the plane are ignored, m (default 0). */
  minRangeM?: number;
}

/** A coordinate reader for one field: the DataView method and its byte offset in the point. */
interface Coordinate {
  offset: number;
  float64: boolean;
}

/** Thrown for a cloud whose layout cannot be read; the mapper turns it into a `malformed` skip. */
export class CloudLayoutError extends Error {}

function coordinate(cloud: PointCloudInput, name: 'x' | 'y' | 'z'): Coordinate {
  const named = cloud.fields.filter((field) => field.name === name);
  // two fields of one name: which the driver meant is unknowable, and the first may point at other data
  if (named.length > 1)
    throw new CloudLayoutError(`${named.length} fields named "${name}": the layout is ambiguous`);
  const f = named[0];
  if (!f) {
    throw new CloudLayoutError(
      `no "${name}" field (fields: ${cloud.fields.map((field) => field.name).join(', ') || 'none'})`,
    );
  }
  const { FLOAT32, FLOAT64 } = POINT_FIELD_DATATYPE;
  if (f.datatype !== FLOAT32 && f.datatype !== FLOAT64) {
    throw new CloudLayoutError(
      `field ${name} has datatype ${f.datatype}; only FLOAT32 (7) and FLOAT64 (8) coordinates are read`,
    );
  }
  if (f.count < 1) throw new CloudLayoutError(`field ${name} has count ${f.count}, expected at least 1`);
  const size = f.datatype === FLOAT64 ? 8 : 4;
  if (f.offset + size > cloud.pointStep) {
    throw new CloudLayoutError(
      `field ${name} at offset ${f.offset} (${size} bytes) does not fit in point_step ${cloud.pointStep}`,
    );
  }
  return { offset: f.offset, float64: f.datatype === FLOAT64 };
}

/** Checks that every point lies inside `data`; returns the coordinate readers. */
function layout(cloud: PointCloudInput): { x: Coordinate; y: Coordinate; z: Coordinate } {
  const { width, height, pointStep, rowStep, data } = cloud;
  const x = coordinate(cloud, 'x');
  const y = coordinate(cloud, 'y');
  const z = coordinate(cloud, 'z');
  if (width * pointStep > rowStep) {
    throw new CloudLayoutError(
      `row_step ${rowStep} is shorter than width ${width} × point_step ${pointStep}`,
    );
  }
  const needed = (height - 1) * rowStep + width * pointStep;
  if (data.byteLength < needed) {
    throw new CloudLayoutError(
      `data holds ${data.byteLength} bytes, ${height} rows of ${width} points need ${needed} (row_step ${rowStep}, point_step ${pointStep})`,
    );
  }
  return { x, y, z };
}

/**
 * Reads coordinate `c` of the point at byte `at`. Little-endian float32 clouds with 4-byte-aligned strides (most
 * drivers) are read through a Float32Array, several times faster than DataView calls on a 260 000-point cloud;
 * anything else goes through DataView with the cloud's byte order.
 */
function coordinateReader(
  cloud: PointCloudInput,
  coords: readonly Coordinate[],
): (at: number, c: Coordinate) => number {
  const { data } = cloud;
  const hostLittle = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  const aligned =
    data.byteOffset % 4 === 0 &&
    cloud.pointStep % 4 === 0 &&
    cloud.rowStep % 4 === 0 &&
    coords.every((c) => !c.float64 && c.offset % 4 === 0);
  if (aligned && cloud.isBigEndian !== hostLittle) {
    const floats = new Float32Array(data.buffer, data.byteOffset, data.byteLength >> 2);
    return (at, c) => floats[(at + c.offset) >> 2]!;
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const little = !cloud.isBigEndian;
  return (at, c) =>
    c.float64 ? view.getFloat64(at + c.offset, little) : view.getFloat32(at + c.offset, little);
}

export function nearestCloudReturn(cloud: PointCloudInput, filter: CloudFilter = {}): ProximityReading {
  const points = cloud.width * cloud.height;
  if (points === 0) return { status: 'invalid', detail: 'the cloud has no points' };
  const { x, y, z } = layout(cloud);
  const read = coordinateReader(cloud, [x, y, z]);
  const optical = cloud.axes === 'optical';
  const minZM = filter.heightBand?.minZM ?? Number.NEGATIVE_INFINITY;
  const maxZM = filter.heightBand?.maxZM ?? Number.POSITIVE_INFINITY;
  const minRange2 = (filter.minRangeM ?? 0) ** 2;
  let valid = 0;
  // Squared planar distance of the nearest point so far; the bearing (atan2) is worked out only for points
  // nearer than it, so most points of a large cloud cost a few multiplications.
  let best2 = Number.POSITIVE_INFINITY;
  let bestBearingRad = 0;
  for (let row = 0; row < cloud.height; row++) {
    for (let col = 0; col < cloud.width; col++) {
      const at = row * cloud.rowStep + col * cloud.pointStep;
      const ax = read(at, x);
      const ay = read(at, y);
      const az = read(at, z);
      const px = optical ? az : ax;
      const py = optical ? -ax : ay;
      const pz = optical ? -ay : az;
      if (!(Number.isFinite(px) && Number.isFinite(py) && Number.isFinite(pz))) continue;
      if (px === 0 && py === 0 && pz === 0) continue;
      valid += 1;
      if (pz < minZM || pz > maxZM) continue;
      const d2 = px * px + py * py;
      if (d2 < minRange2 || d2 >= best2) continue;
      const bearingRad = Math.atan2(py, px);
      if (!inSector(bearingRad, filter.sector)) continue;
      best2 = d2;
      bestBearingRad = bearingRad;
    }
  }
  if (best2 < Number.POSITIVE_INFINITY) {
    return { status: 'detected', distanceM: Math.sqrt(best2), bearingRad: wrapRad(bestBearingRad) };
  }
  if (valid > 0) return { status: 'clear' };
  return {
    status: 'invalid',
    detail: `none of the cloud's ${points} points is a measurement (NaN, infinite or 0,0,0)`,
  };
}
