/**
 * Whether a role's override fits the type the role is bound to: a sector only where there are bearings
 * (LaserScan, PointCloud2), a height band and a self-return range only on a point cloud, a wheelbase only on (and
 * always on) an Ackermann command, a frame only on a stamped message. An override that does not fit is refused
 * at binding time with the role's name, so a typo never silently widens what is searched.
 */
import { TransportError } from '../transport/transport-error.js';
import type { RosRoleOverride } from './ros-bindings.js';
import { ROS_TYPES } from './ros-types.js';

export function invalid(role: string, message: string): TransportError {
  return new TransportError('ROS2_BINDING_INVALID', `ros2 role ${role}: ${message}`);
}

/** The wheelbase an Ackermann intent needs (undefined for other intent types, which must not give one). */
export function checkedWheelbase(role: string, type: string, o: RosRoleOverride): number | undefined {
  if (type !== ROS_TYPES.ackermannDriveStamped) {
    if (o.wheelbaseM !== undefined)
      throw invalid(role, `wheelbaseM applies to ${ROS_TYPES.ackermannDriveStamped} only, not ${type}`);
    return undefined;
  }
  if (!(o.wheelbaseM !== undefined && Number.isFinite(o.wheelbaseM) && o.wheelbaseM > 0)) {
    throw invalid(
      role,
      `${type} needs "wheelbaseM" in the role's override (the distance between the axles, m) to turn a steering angle into a yaw rate${o.wheelbaseM === undefined ? '' : `; got ${o.wheelbaseM}`}`,
    );
  }
  return o.wheelbaseM;
}

function finiteRange(role: string, name: string, lo: number, hi: number, loName: string, hiName: string) {
  if (!(Number.isFinite(lo) && Number.isFinite(hi))) {
    throw invalid(role, `${name}: expected finite ${loName} and ${hiName}, got ${lo}, ${hi}`);
  }
}

/** The sector, height band, minimum range and frame of a telemetry override, checked against the bound type. */
export function checkedTelemetryShape(role: string, type: string, o: RosRoleOverride) {
  if (o.sector) {
    finiteRange(role, 'sector', o.sector.minAngleRad, o.sector.maxAngleRad, 'minAngleRad', 'maxAngleRad');
    if (type !== ROS_TYPES.laserScan && type !== ROS_TYPES.pointCloud2)
      throw invalid(
        role,
        `sector applies to ${ROS_TYPES.laserScan} and ${ROS_TYPES.pointCloud2}, not ${type}`,
      );
  }
  for (const key of ['heightBand', 'minRangeM'] as const) {
    if (o[key] !== undefined && type !== ROS_TYPES.pointCloud2)
      throw invalid(role, `${key} applies to ${ROS_TYPES.pointCloud2} only, not ${type}`);
  }
  if (o.heightBand) {
    finiteRange(role, 'heightBand', o.heightBand.minZM, o.heightBand.maxZM, 'minZM', 'maxZM');
    if (o.heightBand.minZM > o.heightBand.maxZM)
      throw invalid(role, `heightBand: minZM ${o.heightBand.minZM} is above maxZM ${o.heightBand.maxZM}`);
  }
  if (o.minRangeM !== undefined && !(Number.isFinite(o.minRangeM) && o.minRangeM >= 0))
    throw invalid(role, `minRangeM: expected a finite distance ≥ 0 m, got ${o.minRangeM}`);
  if (o.frameId !== undefined && type === ROS_TYPES.string)
    throw invalid(role, `frameId applies to stamped messages, not ${type}`);
  return {
    ...(o.frameId !== undefined ? { frameId: o.frameId.replace(/^\//, '') } : {}),
    ...(o.sector ? { sector: o.sector } : {}),
    ...(o.heightBand ? { heightBand: o.heightBand } : {}),
    ...(o.minRangeM !== undefined ? { minRangeM: o.minRangeM } : {}),
  };
}
