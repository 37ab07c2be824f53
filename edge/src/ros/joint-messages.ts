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
  numberArray,
  textArray,
  timeMs,
} from './ros-fields.js';

/**
 * NaN in a JointState is "not measured": ros2_control's joint_state_broadcaster fills a joint's position, velocity or
 * effort with NaN when the joint has no such state interface (a robot without torque sensing: every effort NaN; a
 * gripper joint with position only beside an arm that measures all three). ±Inf is no such sign and is refused.
 *   - velocity or effort that is NaN on every joint the profile names is not measured: the array is left empty, as
 *     sensor_msgs/JointState says, and the gates that need it fail closed;
 *   - a joint the profile does not name that still has a NaN is left out of the frame (the gates take the
 *     profile's joints by name and never read it; a frame carries finite numbers only);
 *   - a NaN left on a profile joint refuses the frame (`non-finite`), naming the joint.
 * Without the profile's joint names (`profileJoints` undefined) every joint counts as named.
 */
export function jointStateBody(msg: RosRecord, t: string, profileJoints?: readonly string[]) {
  let names = textArray(msg, 'name', t);
  let positionsRad = numberArray(msg, 'position', t);
  let velocitiesRadS = numberArray(msg, 'velocity', t);
  let effortsNm = numberArray(msg, 'effort', t);
  // the three quantities as they stand (the arrays are replaced below as joints are left out)
  const quantities = () =>
    [
      ['position', positionsRad],
      ['velocity', velocitiesRadS],
      ['effort', effortsNm],
    ] as const;
  for (const [name, xs] of quantities()) {
    const i = xs.findIndex((x) => x === Number.POSITIVE_INFINITY || x === Number.NEGATIVE_INFINITY);
    if (i >= 0) throw new FieldProblem('non-finite', `${t}.${name}[${i}]: non-finite value ${xs[i]}`);
  }
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
  const named = profileJoints === undefined ? undefined : new Set(profileJoints);
  const gated = names.map((_, k) => k).filter((k) => named === undefined || named.has(names[k]!));
  const notMeasured = (xs: number[]) => gated.length > 0 && gated.every((k) => Number.isNaN(xs[k]));
  if (notMeasured(velocitiesRadS)) velocitiesRadS = [];
  if (notMeasured(effortsNm)) effortsNm = [];
  const hasNaN = (k: number) =>
    Number.isNaN(positionsRad[k]) || Number.isNaN(velocitiesRadS[k]) || Number.isNaN(effortsNm[k]);
  if (named !== undefined && names.some((n, k) => !named.has(n) && hasNaN(k))) {
    const kept = names.map((_, k) => k).filter((k) => named.has(names[k]!) || !hasNaN(k));
    if (kept.length === 0) {
      throw new FieldProblem(
        'non-finite',
        `${t}: NaN values on ${names.join(', ')}, none of which the profile names (another part's joint states?)`,
      );
    }
    const pick = (xs: number[]) => (xs.length === 0 ? xs : kept.map((k) => xs[k]!));
    names = kept.map((k) => names[k]!);
    positionsRad = pick(positionsRad);
    velocitiesRadS = pick(velocitiesRadS);
    effortsNm = pick(effortsNm);
  }
  for (const [name, xs] of quantities()) {
    const i = xs.findIndex(Number.isNaN);
    if (i >= 0) {
      throw new FieldProblem('non-finite', `${t}.${name}[${i}] (${names[i]}): NaN, a value the gates read`);
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
