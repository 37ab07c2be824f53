/**
 * Arm messages: sensor_msgs/JointState → a joint-state frame body, trajectory_msgs/JointTrajectory → the body of a
 * joint-trajectory intent. Both throw MappingSkip or FieldProblem; RosMessageMapper counts them.
 */
import { MappingSkip } from './mapping-skip.js';
import {
  FieldProblem,
  type RosRecord,
  asRecord,
  field,
  finiteArray,
  textArray,
  timeMs,
} from './ros-fields.js';

export function jointStateBody(msg: RosRecord, t: string) {
  const names = textArray(msg, 'name', t);
  const positionsRad = finiteArray(msg, 'position', t);
  const velocitiesRadS = finiteArray(msg, 'velocity', t);
  const effortsNm = finiteArray(msg, 'effort', t);
  // sensor_msgs/JointState: "each array may be empty" (not measured). Velocity and effort pass on empty, and the
  // gates that need them fail closed (gate-context.ts); positions are what every check reads, so they must be there.
  for (const [name, xs, mayBeEmpty] of [
    ['position', positionsRad, false],
    ['velocity', velocitiesRadS, true],
    ['effort', effortsNm, true],
  ] as const) {
    if (xs.length !== names.length && !(mayBeEmpty && xs.length === 0)) {
      throw new MappingSkip(
        'missing-field',
        `${t}.${name}: expected ${names.length} values (one per joint)${mayBeEmpty ? ' or none' : ''}, got ${xs.length}`,
      );
    }
  }
  return { kind: 'joint-state' as const, names, positionsRad, velocitiesRadS, effortsNm };
}

export function jointTrajectoryBody(msg: RosRecord, t: string) {
  const jointNames = textArray(msg, 'joint_names', t);
  const rawPoints = field(msg, 'points', t);
  if (!Array.isArray(rawPoints)) throw new FieldProblem('wrong-type', `${t}.points: expected an array`);
  const points = rawPoints.map((raw, i) => {
    const w = `${t}.points[${i}]`;
    const p = asRecord(raw, w);
    const velocitiesRadS = finiteArray(p, 'velocities', w);
    const effortsNm = finiteArray(p, 'effort', w);
    return {
      positionsRad: finiteArray(p, 'positions', w),
      // Empty arrays mean "not given" in trajectory_msgs; the intent omits them.
      ...(velocitiesRadS.length > 0 ? { velocitiesRadS } : {}),
      ...(effortsNm.length > 0 ? { effortsNm } : {}),
      timeFromStartMs: timeMs(p, 'time_from_start', w),
    };
  });
  return { kind: 'joint-trajectory' as const, jointNames, points };
}
