/**
 * What every gate reads: the compiled profile, the telemetry store at one instant, the motion plan, the
 * verified provenance, and an evidence log of the exact frames consulted (their JCS digest becomes the
 * command's `evidenceDigest`). Helpers here turn a frame lookup into a standard stale/missing violation.
 */
import {
  edgeViolation,
  type GateResult,
  type JointStateFrame,
  type TelemetryFrame,
  type Vertex,
} from '@pentagate/protocol';
import type { PlanTailSweeps } from '../kinematics/remaining-path-sweep.js';
import type { CompiledProfile } from '../profile/compiled-profile.js';
import type { FreshFrame, StoredFrame, TelemetryStore } from '../telemetry/telemetry-store.js';
import type { MotionPlan } from './motion-plan.js';
import type { ProvenanceRegistry } from './provenance-registry.js';

export interface GateContext {
  cp: CompiledProfile;
  telemetry: TelemetryStore;
  nowMs: number;
  plan: MotionPlan;
  provenance: ProvenanceRegistry;
  /** Frames consulted, by source (the latest frame of each source at `nowMs`, with its canonical bytes). */
  evidence: Map<string, StoredFrame>;
  /** RISK's speed cap (1 = as planned); ECONOMY uses it for the stretched duration. */
  speedScale: number;
  /**
   * RISK's peak Cartesian speed of the plan at full speed (SSM on), m/s, computed when the motion is decided;
   * the running motion keeps it, so monitoring judges the plan's speed, not a lagging robot's catch-up.
   */
  planPeakSpeedMps?: number;
  /** Set when a verified, unused consent statement is bound to this intent. */
  consentGranted: boolean;
  /** Monitoring: how far into the motion we are in plan time, ms (0 when deciding whether to sign). */
  elapsedMs: number;
  /** True while re-checking a motion in progress: planned-speed checks are skipped (a lagging robot is not a fault). */
  monitoring: boolean;
  /**
   * Monitoring only: the remaining path was swept for keep-out zones less than MONITOR_PATH_SWEEP_PERIOD_MS ago,
   * so this re-check does not sweep it again (motion-monitor.ts says why), nor check the plan's own waypoints
   * and planned torques that sweep checked; every check of the measured state still runs.
   */
  skipPathSweep?: boolean;
  /**
   * Monitoring only: the running motion's sweeps of its plan's tail, reused from re-check to re-check
   * (remaining-path-sweep.ts); without it the remaining path is swept whole.
   */
  planTailSweeps?: PlanTailSweeps;
  /**
   * The keep-out zones (indexes) the robot may be inside or within the margin of (held-zones.ts), each with the
   * shallowest depth of every checked point measured in it so far, m: set by INVARIANT's sweep when a move is
   * decided (the zones holding its start); while monitoring, the running motion's, which only shrink.
   */
  heldZones?: Map<number, Float64Array>;
}

export type Gate = (ctx: GateContext) => GateResult;

/** `proximity/front seq 4411, 7 ms old` */
export function describeFrame(f: FreshFrame): string {
  return `${f.frame.kind}/${f.frame.source} seq ${f.frame.seq}, ${f.ageMs} ms old`;
}

/**
 * The fresh latest frame of `source`, recorded as evidence; or undefined after pushing a
 * `<VERTEX>.STALE_DATA` / `<VERTEX>.MISSING_DATA` violation (a gate that lacks data fails closed).
 */
export function freshFrame<F extends TelemetryFrame>(
  ctx: GateContext,
  vertex: DataVertex,
  source: string | undefined,
  kind: F['kind'],
  violations: string[],
): FreshFrame<F> | undefined {
  if (source === undefined) {
    violations.push(edgeViolation(`${vertex}.MISSING_DATA`, `the profile names no ${kind} source`));
    return undefined;
  }
  const found = ctx.telemetry.lookup<F>(source, ctx.nowMs);
  if (found.status === 'missing') {
    violations.push(
      edgeViolation(
        `${vertex}.MISSING_DATA`,
        found.withdrawn === undefined
          ? `no ${kind} frame from ${source} yet`
          : `no usable ${kind} frame from ${source}: its last was withdrawn when an unusable one arrived (${found.withdrawn})`,
      ),
    );
    return undefined;
  }
  if (found.status === 'resync') {
    violations.push(
      edgeViolation(
        `${vertex}.STALE_DATA`,
        `${kind}/${source} broke its seq sequence and is re-synchronising (${found.framesNeeded} more consecutive frame(s) needed${found.spanLeftMs > 0 ? `, over ${found.spanLeftMs} ms more` : ''})`,
      ),
    );
    return undefined;
  }
  if (found.status === 'stale') {
    violations.push(
      edgeViolation(
        `${vertex}.STALE_DATA`,
        `${kind}/${source} seq ${found.frame.seq} is ${found.ageMs} ms old > maxAgeMs ${found.maxAgeMs}`,
      ),
    );
    return undefined;
  }
  ctx.evidence.set(source, found);
  return found;
}

export interface JointState {
  positionsRad: number[];
  velocitiesRadS: number[];
  effortsNm: number[];
  frames: FreshFrame<JointStateFrame>[];
}

/** What a gate reads of a joint state beside positions; sensor_msgs/JointState may leave either array empty. */
export type JointMeasure = 'velocity' | 'effort';

/**
 * Measured joint state in profile order, merged from every joint-state source; every joint must be covered, with
 * the velocities and efforts in `needs`. A measure a frame left empty reads NaN; a gate that needs it fails closed
 * with `<VERTEX>.MISSING_DATA` naming it, never judging an absent value as a harmless one.
 *
 * Each profile joint must come from one source. When two fresh frames both carry it, which one the robot is at
 * cannot be told, and the merge used to keep the later source's values silently: a gripper node's joint state
 * naming the arm's joints (effort 0) hid the arm's measured torque from INVARIANT and CONSENT, and in a two-arm
 * recording (or Franka's /franka/joint_states beside the merged /joint_states) one arm's over-torque was read as
 * the other's nominal effort. Such a joint fails closed too (`<VERTEX>.MISSING_DATA`, naming both sources).
 */
export function measuredJointState(
  ctx: GateContext,
  vertex: DataVertex,
  violations: string[],
  needs: readonly JointMeasure[],
): JointState | undefined {
  const n = ctx.cp.profile.joints.length;
  const positionsRad = new Array<number>(n).fill(Number.NaN);
  const velocitiesRadS = new Array<number>(n).fill(Number.NaN);
  const effortsNm = new Array<number>(n).fill(Number.NaN);
  const frames: FreshFrame<JointStateFrame>[] = [];
  /** The source each profile joint was read from: a joint two sources measure is in doubt (below). */
  const measuredBy = new Array<string | undefined>(n);
  const doubtful: { joint: string; sources: string }[] = [];
  const before = violations.length;
  if (ctx.cp.jointStateSources.length === 0) freshFrame(ctx, vertex, undefined, 'joint-state', violations);
  for (const source of ctx.cp.jointStateSources) {
    const f = freshFrame<JointStateFrame>(ctx, vertex, source, 'joint-state', violations);
    if (!f) continue;
    frames.push(f);
    f.frame.names.forEach((name, k) => {
      const j = ctx.cp.jointIndex.get(name);
      if (j === undefined) return;
      const other = measuredBy[j];
      if (other !== undefined && other !== source)
        doubtful.push({ joint: name, sources: `${other} and ${source}` });
      measuredBy[j] = source;
      positionsRad[j] = f.frame.positionsRad[k]!;
      velocitiesRadS[j] = f.frame.velocitiesRadS[k] ?? Number.NaN;
      effortsNm[j] = f.frame.effortsNm[k] ?? Number.NaN;
    });
  }
  const uncovered = ctx.cp.profile.joints.filter((_, j) => Number.isNaN(positionsRad[j]!)).map((j) => j.name);
  if (violations.length > before) return undefined;
  if (doubtful.length > 0) {
    const joints = doubtful.map((d) => d.joint).join(', ');
    const sources = [...new Set(doubtful.map((d) => d.sources))].join('; ');
    violations.push(
      edgeViolation(
        `${vertex}.MISSING_DATA`,
        `${joints} ${doubtful.length === 1 ? 'is' : 'are'} measured by two joint-state sources, ${sources}: which one is this robot's is in doubt; give each joint one source`,
      ),
    );
    return undefined;
  }
  if (uncovered.length > 0) {
    violations.push(
      edgeViolation(`${vertex}.MISSING_DATA`, `no fresh joint state for ${uncovered.join(', ')}`),
    );
    return undefined;
  }
  for (const need of needs) {
    const values = need === 'velocity' ? velocitiesRadS : effortsNm;
    const lacking = ctx.cp.profile.joints.filter((_, j) => Number.isNaN(values[j]!)).map((j) => j.name);
    if (lacking.length === 0) continue;
    const empty = frames.filter(
      (f) => (need === 'velocity' ? f.frame.velocitiesRadS : f.frame.effortsNm).length === 0,
    );
    violations.push(
      edgeViolation(
        `${vertex}.MISSING_DATA`,
        `no measured ${need} for ${lacking.join(', ')}: ${empty.map(describeFrame).join('; ')} has an empty ${need} array`,
      ),
    );
  }
  if (violations.length > before) return undefined;
  return { positionsRad, velocitiesRadS, effortsNm, frames };
}

/** The gates that judge telemetry (CONSENT judges the plan and the operator's token only). */
export type DataVertex = Exclude<Vertex, 'CONSENT'>;

export function result(vertex: Vertex, violations: string[], evidence: Record<string, unknown>): GateResult {
  return { vertex, passed: violations.length === 0, violations, evidence };
}

export const fmt = (x: number, digits = 2): string => x.toFixed(digits);

/**
 * A reading and the limit it broke, with as many more decimals (up to four) as it takes for the two printed
 * numbers to differ: "human at 1.20 m < radius 1.20 m" (1.197 against 1.2) reads as no breach at all.
 */
export function fmtAgainst(value: number, limit: number, digits = 2): [string, string] {
  let d = digits;
  while (d < digits + 4 && fmt(value, d) === fmt(limit, d)) d++;
  return [fmt(value, d), fmt(limit, d)];
}

/** `"150.04 N·m > limit 150.00 N·m"`: a reading over its limit, both printed by fmtAgainst. */
export function fmtOver(
  value: number,
  limit: number,
  unit: string,
  digits: number,
  limitName = 'limit',
): string {
  const [v, l] = fmtAgainst(value, limit, digits);
  return `${v} ${unit} > ${limitName} ${l} ${unit}`;
}
