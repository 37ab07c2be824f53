/**
 * Continuous monitoring of the motion a signed command started (ARCHITECTURE.md §4): while it may still be
 * running, every telemetry update re-checks INVARIANT and RISK against the plan at the elapsed plan time, and
 * CONSENT's measured-torque bound when no operator consented to it. RISK
 * judges the speed the plan was signed with (its speed cap and its peak Cartesian speed), not what a lagging
 * robot does to catch up; the fastest such speed while an earlier, faster motion may still be running.
 *
 * The keep-out sweep of the remaining path is the one check whose cost the planner chooses (up to
 * MAX_PATH_SAMPLES: 0.4 ms warm, 3 ms cold on a 2-core test host), and joint states arrive at the
 * controller's rate (500 Hz from a UR driver, 1 kHz from a Franka): swept on every frame, one long plan could
 * take the whole event loop, and the proximity frame that must stop the robot would wait behind the joint
 * states. So the remaining path is swept again at most every MONITOR_PATH_SWEEP_PERIOD_MS (the node's monitor
 * tick makes sure it is); the measured torques and positions, RISK and the staleness of every source are
 * still checked on every frame. And a re-sweep sweeps only the segment from the measured state to the next
 * waypoint afresh: the plan's tail from there is swept once per waypoint and reused (remaining-path-sweep.ts).
 */
import type { GateResult } from '@pentagate/protocol';
import type { GateContext } from '../gates/gate-context.js';
import { measuredTorqueConsentGate } from '../gates/consent.js';
import { invariantGate } from '../gates/invariant.js';
import { PlanTailSweeps } from '../kinematics/remaining-path-sweep.js';
import type { MotionPlan } from '../gates/motion-plan.js';
import { riskGate } from '../gates/risk.js';
import { runGate } from '../gates/run-gate.js';
import { evidenceDigest } from './evidence-digest.js';

/**
 * Longest time between two keep-out sweeps of a running motion's remaining path, ms. Half the 20 ms the
 * specification allows a veto from sensor data, so a path the measured state has pushed into a zone is still
 * stopped within it, and a plan at the sample bound takes at most a few per cent of the event loop (warm).
 */
export const MONITOR_PATH_SWEEP_PERIOD_MS = 10;

/** The motion a signed command started, re-checked on every telemetry update until it should have ended. */
export interface ActiveMotion {
  intentId: string;
  plan: MotionPlan;
  commandSeq: number;
  startedAtMs: number;
  /**
   * The latest the controller can still be running it: it accepts the command until validUntil (the node
   * publishes it only once its verdict is durable, the link adds its delay) and runs the whole plan from then.
   */
  endsAtMs: number;
  /** The speed cap it was signed with (plan time runs this much slower than wall time). */
  speedScale: number;
  /** Whether an operator consented to it; if not, its measured efforts are held to the consent threshold. */
  consented: boolean;
  /** When its remaining path was last swept for keep-out zones (Unix ms; signing swept it). */
  pathSweptAtMs: number;
  /** Its plan's tail sweeps, reused by the re-checks (remaining-path-sweep.ts). */
  planTailSweeps: PlanTailSweeps;
  /**
   * The keep-out zones it may still be inside (held-zones.ts): those of its start, until it leaves them, with
   * the shallowest depth of each checked point measured in them.
   */
  heldZones: Map<number, Float64Array>;
  /**
   * The speeds the robot may be moving at: this motion's, and those of the motions signed before it that the
   * controller may still be running (a command lost, late or refused leaves the robot on the one before), each
   * until it would have ended. RISK judges the fastest of them (recheckMotion).
   */
  mayRun: readonly RunningSpeed[];
}

/** A signed motion's speed as RISK judges it, and the latest the robot can still be moving at it. */
export interface RunningSpeed {
  untilMs: number;
  speedScale: number;
  /** RISK's peak Cartesian speed of its plan (SSM on), m/s. */
  planPeakSpeedMps?: number;
}

/**
 * The motion a command signed at `nowMs` starts, from the context its gates ran in. It replaces `previous`
 * (the motion in progress, if any) on the controller only if the controller takes the new command: one lost,
 * late or refused leaves the robot running the previous motion. So the new motion is watched at least as
 * long as the previous one may still run (its plan and speed are the new command's; the operating radius
 * and the measured efforts are checked whatever the robot runs).
 */
export function startedMotion(
  intentId: string,
  commandSeq: number,
  nowMs: number,
  ctx: GateContext,
  previous?: ActiveMotion,
): ActiveMotion {
  const { plan, speedScale } = ctx;
  const endsAtMs = motionEndsAtMs(nowMs, ctx);
  const own: RunningSpeed = {
    untilMs: endsAtMs,
    speedScale,
    ...(ctx.planPeakSpeedMps !== undefined ? { planPeakSpeedMps: ctx.planPeakSpeedMps } : {}),
  };
  return {
    intentId,
    plan,
    commandSeq,
    startedAtMs: nowMs,
    endsAtMs: previous && previous.endsAtMs > endsAtMs ? previous.endsAtMs : endsAtMs,
    speedScale,
    consented: ctx.consentGranted,
    pathSweptAtMs: nowMs,
    planTailSweeps: new PlanTailSweeps(),
    heldZones: ctx.heldZones ?? new Map(),
    mayRun: [own, ...(previous?.mayRun.filter((r) => r.untilMs >= nowMs) ?? [])],
  };
}

/**
 * The fastest speed the robot may be moving at `nowMs` (ActiveMotion.mayRun): RISK's separation distance
 * grows with the robot's speed (ISO/TS 15066 §5.5.4), so judging the newest, slower plan while the robot
 * may still run a faster one would let a person closer than that one allows.
 */
export function fastestRunning(m: ActiveMotion, nowMs: number): RunningSpeed {
  const speed = (r: RunningSpeed) => (r.planPeakSpeedMps ?? 1) * r.speedScale;
  let fastest = m.mayRun[0]!;
  for (const r of m.mayRun) if (r.untilMs >= nowMs && speed(r) > speed(fastest)) fastest = r;
  return fastest;
}

/**
 * The latest a motion signed at `nowMs` can still be running: the controller accepts its command until
 * `validUntil` and runs the whole plan, stretched by the speed cap, from then.
 */
export function motionEndsAtMs(nowMs: number, ctx: GateContext): number {
  return nowMs + ctx.cp.profile.command.validForMs + ctx.plan.durationMs / ctx.speedScale;
}

/** How far into its plan the motion is at `nowMs`, in plan time (a speed cap stretches wall time). */
export function elapsedPlanMs(m: ActiveMotion, nowMs: number): number {
  return Math.max(0, (nowMs - m.startedAtMs) * m.speedScale);
}

/**
 * Why the motion must stop (its gates and the evidence they read), or undefined when they pass. The remaining
 * path is swept when MONITOR_PATH_SWEEP_PERIOD_MS have passed since the last sweep (or the clock went back),
 * unless RISK already stops the motion: RISK runs first, and a STOP it makes certain does not wait for a sweep
 * falling due on the same frame (the sweep is not marked done, so a motion that goes on is swept next frame).
 */
export function recheckMotion(
  m: ActiveMotion,
  ctx: GateContext,
): { gates: GateResult[]; evidenceDigest: string } | undefined {
  const running = fastestRunning(m, ctx.nowMs);
  const risk = runGate(
    'RISK',
    (c) =>
      riskGate(c, {
        runningSpeedScale: running.speedScale,
        ...(running.planPeakSpeedMps !== undefined ? { runningPeakSpeedMps: running.planPeakSpeedMps } : {}),
      }),
    ctx,
  );
  const sinceSweepMs = ctx.nowMs - m.pathSweptAtMs;
  const sweepDue = sinceSweepMs < 0 || sinceSweepMs >= MONITOR_PATH_SWEEP_PERIOD_MS;
  if (sweepDue && risk.passed) m.pathSweptAtMs = ctx.nowMs;
  else ctx.skipPathSweep = true;
  ctx.planTailSweeps = m.planTailSweeps;
  ctx.heldZones = m.heldZones;
  const gates = [
    runGate('INVARIANT', invariantGate, ctx),
    risk,
    ...(m.consented ? [] : [runGate('CONSENT', measuredTorqueConsentGate, ctx)]),
  ];
  if (gates.every((g) => g.passed)) return undefined;
  return { gates, evidenceDigest: evidenceDigest(ctx.evidence) };
}
