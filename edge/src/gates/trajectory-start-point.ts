/**
 * A trajectory's start point (JointPlan.startPoint: its first point at time_from_start 0, as MoveIt plans every
 * trajectory) against the measured joint state. joint_trajectory_controller commands a point at 0 at once, so a
 * start point away from where the joints are is a jump: an unbounded velocity (INVARIANT.VELOCITY_LIMIT). Within
 * START_TOLERANCE_RAD it is the start state the planner read, and the move is judged from the measured position
 * as any other. Its planned effort is held to the torque limit as every point's is (INVARIANT.PLANNED_TORQUE).
 */
import { edgeViolation } from '@pentagate/protocol';
import type { RobotProfile } from '@pentagate/protocol';
import { fmt, fmtOver } from './gate-context.js';
import type { JointPlan } from './motion-plan.js';

/** MoveIt's default `allowed_start_tolerance` (trajectory_execution), rad: how far a planned start may lie. */
export const START_TOLERANCE_RAD = 0.01;

export function checkStartPoint(
  start: NonNullable<JointPlan['startPoint']>,
  measuredRad: readonly number[],
  joints: RobotProfile['joints'],
  violations: string[],
): void {
  joints.forEach((j, k) => {
    const q = start.positionsRad[k]!;
    const measured = measuredRad[k]!;
    const off = Math.abs(q - measured);
    if (!(off <= START_TOLERANCE_RAD)) {
      violations.push(
        edgeViolation(
          'INVARIANT.VELOCITY_LIMIT',
          `${j.name}: the point at time_from_start 0 is ${fmt(off, 3)} rad from the measured ${fmt(measured, 3)} rad (start tolerance ${fmt(START_TOLERANCE_RAD, 3)} rad): the controller would jump there at once`,
        ),
      );
    }
    const e = start.effortsNm?.[k];
    if (e !== undefined && Math.abs(e) > j.torqueLimitNm) {
      violations.push(
        edgeViolation(
          'INVARIANT.PLANNED_TORQUE',
          `${j.name} at the start point plans ${fmtOver(Math.abs(e), j.torqueLimitNm, 'N·m', 1)}`,
        ),
      );
    }
  });
}
