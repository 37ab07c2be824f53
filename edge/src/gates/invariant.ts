/**
 * INVARIANT (ARCHITECTURE.md §3): joint torque ≤ limit; joint positions within limits; joint speeds within limits;
 * no point of the planned path, nor the predicted stopping point, enters a keep-out zone; a robot already
 * inside a zone, or within its margin, may only make a motion that takes no point of it deeper and ends out of
 * the zone (zone-depth-ratchet.ts). Arms are checked through DH forward kinematics
 * (joint-path-sweep.ts), mobile bases through twist integration from the measured pose (base-path-sweep.ts).
 *
 * Codes: INVARIANT.MEASURED_TORQUE, INVARIANT.PLANNED_TORQUE, INVARIANT.POSITION_LIMIT,
 * INVARIANT.VELOCITY_LIMIT, INVARIANT.KEEP_OUT_PATH, INVARIANT.KEEP_OUT_STOP, INVARIANT.KEEP_OUT_NOT_LEFT,
 * INVARIANT.KEEP_OUT_DEEPER,
 * INVARIANT.PATH_TOO_LONG (path-sample-budget.ts), INVARIANT.UNSUPPORTED_AXIS (ground-base-axes.ts),
 * INVARIANT.STALE_DATA, INVARIANT.MISSING_DATA.
 */
import { type GateResult, type PoseFrame, edgeViolation } from '@pentagate/protocol';
import { baseSweepSteps, sweepBasePath, yawOf } from '../kinematics/base-path-sweep.js';
import { skeletonPointName } from '../kinematics/arm-skeleton.js';
import { jointSweepSamples, sweepInflationM, sweepJointPath } from '../kinematics/joint-path-sweep.js';
import {
  type GateContext,
  describeFrame,
  fmt,
  fmtOver,
  freshFrame,
  measuredJointState,
  result,
} from './gate-context.js';
import { outOfPlaneViolations } from './ground-base-axes.js';
import { enteredZoneViolation } from './held-zones.js';
import type { JointPlan, TwistPlan } from './motion-plan.js';
import { pathSampleProblem } from './path-sample-budget.js';
import { checkStartPoint } from './trajectory-start-point.js';

const V = 'INVARIANT' as const;

/** How far over its velocity limit a joint may measure before a move (controller overshoot, encoder noise). */
export const MEASURED_SPEED_MARGIN = 1.1;

/** Waypoints (start first) still ahead at `elapsedMs`, with their times and velocities. */
export function remainingWaypoints(
  plan: JointPlan,
  startRad: readonly number[],
  startVelRadS: readonly number[],
  elapsedMs: number,
): {
  waypointsRad: (readonly number[])[];
  timesMs: number[];
  velocitiesRadS: (readonly number[])[];
} {
  const waypointsRad: (readonly number[])[] = [startRad];
  const timesMs = [elapsedMs];
  const velocitiesRadS: (readonly number[])[] = [startVelRadS];
  plan.targetsRad.forEach((q, i) => {
    const t = plan.timesMs[i]!;
    if (t <= elapsedMs) return;
    const prevQ = waypointsRad[waypointsRad.length - 1]!;
    const prevT = timesMs[timesMs.length - 1]!;
    waypointsRad.push(q);
    timesMs.push(t);
    // Per joint, the larger of the planned velocity and the arriving segment's mean velocity: a controller
    // passing through the point moves at least about the mean, and a stop from it is what the stopping point
    // must cover. A planned 0 must not stand for a joint that arrives at 3 rad/s (outside review: a declared
    // `velocitiesRadS: [0, …]` on the last point switched the stopping-point check off).
    const planned = plan.velocitiesRadS?.[i];
    velocitiesRadS.push(
      q.map((x, j) => {
        const meanRadS = ((x - prevQ[j]!) * 1000) / (t - prevT);
        const plannedRadS = planned?.[j] ?? 0;
        return Math.abs(plannedRadS) > Math.abs(meanRadS) ? plannedRadS : meanRadS;
      }),
    );
  });
  return { waypointsRad, timesMs, velocitiesRadS };
}

/** Joint position limits at each waypoint (waypointsRad[0] is the measured state). */
function checkPositionLimits(
  waypointsRad: readonly (readonly number[])[],
  joints: GateContext['cp']['profile']['joints'],
  violations: string[],
): void {
  waypointsRad.forEach((q, w) => {
    q.forEach((x, k) => {
      const j = joints[k]!;
      if (x < j.positionLimitsRad.min || x > j.positionLimitsRad.max) {
        violations.push(
          edgeViolation(
            'INVARIANT.POSITION_LIMIT',
            `${j.name} ${w === 0 ? 'measured' : `waypoint ${w}`} at ${fmt(x, 3)} rad outside [${fmt(j.positionLimitsRad.min, 3)}, ${fmt(j.positionLimitsRad.max, 3)}] rad`,
          ),
        );
      }
    });
  });
}

/**
 * A measured joint speed above the joint's limit (with MEASURED_SPEED_MARGIN for a controller's overshoot and
 * the sensor's noise): the arm is already moving faster than it may — a runaway joint or a broken encoder —
 * so no new move is signed on it. Judged when the intent is; while a motion runs, measured torque and the
 * path sweep from the measured state keep watch.
 */
function checkMeasuredSpeeds(
  velocitiesRadS: readonly number[],
  joints: GateContext['cp']['profile']['joints'],
  violations: string[],
): void {
  joints.forEach((j, k) => {
    const speed = Math.abs(velocitiesRadS[k]!);
    const bound = j.velocityLimitRadS * MEASURED_SPEED_MARGIN;
    if (speed > bound) {
      violations.push(
        edgeViolation(
          'INVARIANT.VELOCITY_LIMIT',
          `${j.name} measured ${fmtOver(speed, bound, 'rad/s', 3, `its limit + ${Math.round((MEASURED_SPEED_MARGIN - 1) * 100)} %`)} before the move: a runaway joint or a broken sensor`,
        ),
      );
    }
  });
}

/** `goes 4.2 cm deeper into zone table-top (or its margin) than it has been on this move`. */
function deeperText(deeperByM: number | undefined, zoneId: string): string {
  return `goes ${fmt((deeperByM ?? 0) * 100, 1)} cm deeper into zone ${zoneId} (or its margin) than it has been on this move`;
}

/** Why a move deeper is vetoed, appended to its violation. */
const DEEPER_RULE = 'a robot inside a zone or its margin may only move out of it or along it';

function checkArm(
  ctx: GateContext,
  plan: JointPlan,
  violations: string[],
  evidence: Record<string, unknown>,
): void {
  const state = measuredJointState(ctx, V, violations, ['effort', 'velocity']);
  if (!state) return;
  const joints = ctx.cp.profile.joints;
  // Shown with the gate (a DiagnosticStatus value on /diagnostics), so a skipped joint is never invisible.
  const ignored = state.frames.flatMap((f) => f.frame.names.filter((n) => !ctx.cp.jointIndex.has(n)));
  if (ignored.length > 0) evidence.ignoredJoints = ignored;
  joints.forEach((j, k) => {
    const measured = state.effortsNm[k]!;
    if (Math.abs(measured) > j.torqueLimitNm) {
      const src = state.frames.map(describeFrame).join('; ');
      violations.push(
        edgeViolation(
          'INVARIANT.MEASURED_TORQUE',
          `${j.name} measured ${fmtOver(Math.abs(measured), j.torqueLimitNm, 'N·m', 1)} (${src})`,
        ),
      );
    }
  });
  if (!ctx.monitoring) checkMeasuredSpeeds(state.velocitiesRadS, joints, violations);
  // The start point is passed once the motion runs; it is judged when the intent is.
  if (plan.startPoint && !ctx.monitoring) {
    checkStartPoint(plan.startPoint, state.positionsRad, joints, violations);
  }
  // Between two sweeps of a running motion (motion-monitor.ts) only the measured state is new: the plan's
  // waypoints and planned torques are the ones the last sweep checked at most MONITOR_PATH_SWEEP_PERIOD_MS
  // ago, and walking a long plan's on every 1 kHz joint state cost more than the rest of the check.
  if (ctx.skipPathSweep) {
    checkPositionLimits([state.positionsRad], joints, violations);
    return;
  }
  const { waypointsRad, timesMs, velocitiesRadS } = remainingWaypoints(
    plan,
    state.positionsRad,
    state.velocitiesRadS,
    ctx.elapsedMs,
  );
  plan.effortsNm?.forEach((efforts, i) => {
    if (plan.timesMs[i]! <= ctx.elapsedMs) return;
    efforts.forEach((e, k) => {
      const j = joints[k]!;
      if (Math.abs(e) > j.torqueLimitNm) {
        violations.push(
          edgeViolation(
            'INVARIANT.PLANNED_TORQUE',
            `${j.name} at point ${i} plans ${fmtOver(Math.abs(e), j.torqueLimitNm, 'N·m', 1)}`,
          ),
        );
      }
    });
  });
  checkPositionLimits(waypointsRad, joints, violations);
  for (let w = 1; w < waypointsRad.length && !ctx.monitoring; w++) {
    const dtS = (timesMs[w]! - timesMs[w - 1]!) / 1000;
    joints.forEach((j, k) => {
      const mean = Math.abs(waypointsRad[w]![k]! - waypointsRad[w - 1]![k]!) / dtS;
      const planned = Math.abs(velocitiesRadS[w]![k]!);
      const v = Math.max(mean, planned);
      if (v > j.velocityLimitRadS) {
        violations.push(
          edgeViolation(
            'INVARIANT.VELOCITY_LIMIT',
            `${j.name} before waypoint ${w} at ${fmtOver(v, j.velocityLimitRadS, 'rad/s', 3)}`,
          ),
        );
      }
    });
  }
  const spacingM = ctx.cp.profile.keepOut.minZoneThicknessM;
  const samples = jointSweepSamples({ leverArmsM: ctx.cp.leverArmsM, spacingM, waypointsRad });
  const tooLong = pathSampleProblem(samples, spacingM);
  if (tooLong) {
    violations.push(tooLong);
    return;
  }
  const sweepInput = {
    dh: ctx.cp.dhTable,
    leverArmsM: ctx.cp.leverArmsM,
    zones: ctx.cp.profile.keepOut.zones,
    spacingM,
    waypointsRad,
    velocitiesRadS,
    stoppingTimeS: ctx.cp.profile.risk.ssm.stoppingTimeS,
  };
  const sweep = ctx.planTailSweeps
    ? ctx.planTailSweeps.sweep(ctx.cp, sweepInput)
    : sweepJointPath(sweepInput);
  evidence.pathSamples = sweep.samples;
  evidence.startZones = sweep.startZones.map((z) => ctx.cp.profile.keepOut.zones[z]!.id);
  const entered = enteredZoneViolation(
    ctx,
    sweep,
    { marginM: sweepInflationM(spacingM), stepM: spacingM },
    'the measured arm',
  );
  if (entered) violations.push(entered);
  if (sweep.hit) {
    const h = sweep.hit;
    const zone = ctx.cp.profile.keepOut.zones[h.zoneIndex]!;
    const at = `(${h.pointM.map((x) => fmt(x, 3)).join(', ')}) m`;
    const part = skeletonPointName(h.frame, h.alongLink);
    const what =
      h.kind === 'path'
        ? edgeViolation(
            'INVARIANT.KEEP_OUT_PATH',
            `${part} enters zone ${zone.id} at ${at} after waypoint ${h.waypoint}`,
          )
        : h.kind === 'deeper'
          ? edgeViolation(
              'INVARIANT.KEEP_OUT_DEEPER',
              `${part} ${deeperText(h.deeperByM, zone.id)}, at ${at} after waypoint ${h.waypoint}: ${DEEPER_RULE}`,
            )
          : h.kind === 'stop'
            ? edgeViolation(
                'INVARIANT.KEEP_OUT_STOP',
                `predicted stopping point of ${part} at waypoint ${h.waypoint} is ${h.deeperByM ? deeperText(h.deeperByM, zone.id) : `in zone ${zone.id}`} at ${at}`,
              )
            : edgeViolation(
                'INVARIANT.KEEP_OUT_NOT_LEFT',
                `the robot starts inside zone ${zone.id} and the motion does not leave it`,
              );
    violations.push(what);
  }
}

function checkBase(
  ctx: GateContext,
  plan: TwistPlan,
  violations: string[],
  evidence: Record<string, unknown>,
): void {
  const base = ctx.cp.profile.base;
  const { intent } = plan;
  if (!base) {
    violations.push(edgeViolation('INVARIANT.MISSING_DATA', `the profile has no base model`));
    return;
  }
  const linear = Math.hypot(intent.linearMps.x, intent.linearMps.y, intent.linearMps.z);
  if (linear > base.maxLinearMps) {
    violations.push(
      edgeViolation('INVARIANT.VELOCITY_LIMIT', `linear ${fmtOver(linear, base.maxLinearMps, 'm/s', 3)}`),
    );
  }
  if (Math.abs(intent.angularRadS.z) > base.maxAngularRadS) {
    violations.push(
      edgeViolation(
        'INVARIANT.VELOCITY_LIMIT',
        `angular ${fmtOver(Math.abs(intent.angularRadS.z), base.maxAngularRadS, 'rad/s', 3)}`,
      ),
    );
  }
  violations.push(...outOfPlaneViolations(intent));
  const pose = freshFrame<PoseFrame>(ctx, V, ctx.cp.poseSource, 'pose', violations);
  if (!pose || ctx.skipPathSweep) return;
  const remainingS = Math.max(0, plan.durationMs - ctx.elapsedMs) / 1000;
  const spacingM = ctx.cp.profile.keepOut.minZoneThicknessM;
  const tooLong = pathSampleProblem(
    baseSweepSteps({ linearMps: intent.linearMps, durationS: remainingS, spacingM }) + 2,
    spacingM,
  );
  if (tooLong) {
    violations.push(tooLong);
    return;
  }
  const sweep = sweepBasePath({
    zones: ctx.cp.profile.keepOut.zones,
    spacingM,
    footprintRadiusM: base.footprintRadiusM,
    startM: pose.frame.positionM,
    yawRad: yawOf(pose.frame.orientation),
    linearMps: intent.linearMps,
    angularRadS: intent.angularRadS.z,
    durationS: remainingS,
    stoppingTimeS: ctx.cp.profile.risk.ssm.stoppingTimeS,
  });
  evidence.pathSamples = sweep.samples;
  evidence.startZones = sweep.startZones.map((z) => ctx.cp.profile.keepOut.zones[z]!.id);
  const entered = enteredZoneViolation(
    ctx,
    sweep,
    { marginM: spacingM / 2 + base.footprintRadiusM, stepM: spacingM },
    `the base (${describeFrame(pose)})`,
  );
  if (entered) violations.push(entered);
  if (sweep.hit) {
    const h = sweep.hit;
    const zone = ctx.cp.profile.keepOut.zones[h.zoneIndex]!;
    const at = `(${h.pointM.map((x) => fmt(x, 3)).join(', ')}) m`;
    violations.push(
      h.kind === 'path'
        ? edgeViolation(
            'INVARIANT.KEEP_OUT_PATH',
            `base enters zone ${zone.id} at ${at}, ${fmt(h.tS, 2)} s in (${describeFrame(pose)})`,
          )
        : h.kind === 'deeper'
          ? edgeViolation(
              'INVARIANT.KEEP_OUT_DEEPER',
              `base ${deeperText(h.deeperByM, zone.id)}, at ${at}, ${fmt(h.tS, 2)} s in (${describeFrame(pose)}): ${DEEPER_RULE}`,
            )
          : h.kind === 'stop'
            ? edgeViolation(
                'INVARIANT.KEEP_OUT_STOP',
                `predicted stopping point ${at} is ${h.deeperByM ? deeperText(h.deeperByM, zone.id) : `in zone ${zone.id}`}`,
              )
            : edgeViolation(
                'INVARIANT.KEEP_OUT_NOT_LEFT',
                `the base starts inside zone ${zone.id} and the motion does not leave it`,
              ),
    );
  }
}

export function invariantGate(ctx: GateContext): GateResult {
  const violations: string[] = [];
  const evidence: Record<string, unknown> = {};
  if (ctx.plan.kind === 'joint') checkArm(ctx, ctx.plan, violations, evidence);
  else checkBase(ctx, ctx.plan, violations, evidence);
  return result(V, violations, evidence);
}
