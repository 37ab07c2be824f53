/**
 * Turns an accepted command's setpoints into a setpoint at any instant (the ros2_control joint trajectory
 * controller habit: linear interpolation between points, the first segment starting from where the joints
 * were when the command was accepted). A RISK speed cap `speedScale` < 1 stretches time by 1/speedScale.
 */
import type { JointSetpoints, TwistSetpoints } from '@pentagate/protocol';

export type Setpoint =
  | { kind: 'joint'; positionsRad: number[] }
  | { kind: 'twist'; linearMps: number; angularRadS: number };

export interface Execution {
  readonly seq: number;
  readonly startedAtMs: number;
  readonly endsAtMs: number;
  setpointAt(nowMs: number): Setpoint;
}

/** The speed cap; a cap of 0 never gets here (the controller holds instead, motor-controller.ts). */
function scaleOf(s: { speedScale?: number }): number {
  return s.speedScale !== undefined && s.speedScale > 0 ? s.speedScale : 1;
}

export function jointExecution(
  seq: number,
  setpoints: JointSetpoints,
  jointOrder: readonly string[],
  startRad: readonly number[],
  startedAtMs: number,
): Execution {
  const scale = scaleOf(setpoints);
  // Map the command's joint order onto the robot's; a joint the command does not name holds its position.
  const index = jointOrder.map((name) => setpoints.jointNames.indexOf(name));
  const points = setpoints.points.map((p) => ({
    tMs: p.timeFromStartMs / scale,
    q: jointOrder.map((_, j) => (index[j]! >= 0 ? p.positionsRad[index[j]!]! : startRad[j]!)),
  }));
  const durationMs = points[points.length - 1]!.tMs;
  return {
    seq,
    startedAtMs,
    endsAtMs: startedAtMs + durationMs,
    setpointAt(nowMs) {
      const t = nowMs - startedAtMs;
      let prevT = 0;
      let prevQ: readonly number[] = startRad;
      for (const p of points) {
        if (t <= p.tMs) {
          const f = p.tMs === prevT ? 1 : Math.max(0, (t - prevT) / (p.tMs - prevT));
          return { kind: 'joint', positionsRad: prevQ.map((q0, j) => q0 + f * (p.q[j]! - q0)) };
        }
        prevT = p.tMs;
        prevQ = p.q;
      }
      return { kind: 'joint', positionsRad: [...prevQ] };
    },
  };
}

export function twistExecution(seq: number, setpoints: TwistSetpoints, startedAtMs: number): Execution {
  const scale = scaleOf(setpoints);
  const endsAtMs = startedAtMs + setpoints.durationMs / scale;
  return {
    seq,
    startedAtMs,
    endsAtMs,
    setpointAt(nowMs) {
      if (nowMs >= endsAtMs) return { kind: 'twist', linearMps: 0, angularRadS: 0 };
      return {
        kind: 'twist',
        linearMps: setpoints.linearMps.x * scale,
        angularRadS: setpoints.angularRadS.z * scale,
      };
    },
  };
}
