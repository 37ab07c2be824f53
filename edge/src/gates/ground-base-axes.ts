/**
 * A mobile base (profile kind `mobile-base`) is a ground base: it drives in the floor plane and turns about its
 * z axis. In the base frame of REP 103 (x forward, y left, z up) a geometry_msgs/Twist for it may set linear.x,
 * linear.y (an omnidirectional base) and angular.z; linear.z (climb), angular.x (roll) and angular.y (pitch)
 * ask for a motion no wheel makes. The gates judge the planar path, so a twist with those set would be signed
 * for a motion other than the one it commands: vetoed (INVARIANT.UNSUPPORTED_AXIS), naming each field. -0 is
 * zero; NaN is not, so it is vetoed too.
 */
import { edgeViolation } from '@pentagate/protocol';

interface Vector3 {
  x: number;
  y: number;
  z: number;
}

/** The out-of-plane fields of a geometry_msgs/Twist, with their units. */
const OUT_OF_PLANE = [
  { field: 'linear.z', of: 'linearMps', axis: 'z', unit: 'm/s' },
  { field: 'angular.x', of: 'angularRadS', axis: 'x', unit: 'rad/s' },
  { field: 'angular.y', of: 'angularRadS', axis: 'y', unit: 'rad/s' },
] as const;

/** One INVARIANT.UNSUPPORTED_AXIS violation per non-zero out-of-plane field of the twist. */
export function outOfPlaneViolations(twist: { linearMps: Vector3; angularRadS: Vector3 }): string[] {
  const violations: string[] = [];
  for (const { field, of, axis, unit } of OUT_OF_PLANE) {
    const value = twist[of][axis];
    if (value === 0) continue;
    violations.push(
      edgeViolation(
        'INVARIANT.UNSUPPORTED_AXIS',
        // As given, not rounded: 1e-6 rad/s is refused too and must not read as 0.000.
        `${field} ${value} ${unit}: a ground base moves in the floor plane and turns about z only (REP 103)`,
      ),
    );
  }
  return violations;
}
