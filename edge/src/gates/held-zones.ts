/**
 * The keep-out zones a motion may be inside. A move may start inside a zone, or its margin, and leave it
 * (joint-path-sweep.ts, "already inside"), so the sweep holds such a zone to the no-deeper rule
 * (zone-depth-ratchet.ts) instead of vetoing every sample in it. While a motion runs, its remaining
 * path is swept from the measured state (remaining-path-sweep.ts), and that excuse, recomputed on each
 * re-check, excused whatever zone the robot had drifted into since it was signed, as long as the rest of the
 * plan left it again: an arm sagging into the table or swinging into the operator station ran on.
 *
 * So the zones held are fixed when the command is signed (the zones that held its start) and only shrink: a
 * re-check that finds the measured state out of a held zone drops it (re-entering it is then a hit, as in one
 * sweep), and a measured state inside any zone not held is INVARIANT.KEEP_OUT_PATH.
 *
 * And within a held zone the robot may not sink: each re-sweep starts its no-deeper rule from the measured
 * state, so a robot measured deeper than its plan would take it (a sagging arm, a base pushed in) was not
 * stopped for that. Each held zone keeps, per checked point, the shallowest depth measured since the move
 * was signed; a measured state deeper than that by more than the plan itself may go between two of its
 * samples is INVARIANT.KEEP_OUT_DEEPER (`sinkSlackM`).
 */
import { edgeViolation } from '@pentagate/protocol';
import { DEEPER_TOLERANCE_M } from '../kinematics/zone-depth-ratchet.js';
import type { GateContext } from './gate-context.js';

/**
 * How much deeper than the shallowest measured so far a robot following its plan may be measured, m: between
 * two samples of the plan a checked point moves at most one sampling step `stepM` (the arm's and the base's
 * spacing), so its depth there is within stepM / 2 of a sample's, above or below. Two measurements of the
 * plan can thus differ by stepM from what the samples allowed, plus the ratchet's tolerance.
 */
export function sinkSlackM(stepM: number): number {
  return stepM + DEEPER_TOLERANCE_M;
}

/** What the sweep found at the measured state: the zones whose margin holds it and each point's depth in them. */
export interface MeasuredZones {
  startZones: readonly number[];
  startDepthsM: readonly Float64Array[];
}

/**
 * Updates `ctx.heldZones` from the zones whose margin holds the measured state (from the sweep) and returns
 * the violation for a zone the state is in but may not be, or has sunk into, if any. Deciding: the start
 * zones become the held set, with their depths. Monitoring: a held zone the state has left is dropped; a
 * motion without a held set (none was recorded) holds none (fail closed). `marginM` is the sweep's margin
 * around a zone and `stepM` its sampling step.
 */
export function enteredZoneViolation(
  ctx: GateContext,
  measured: MeasuredZones,
  geometry: { marginM: number; stepM: number },
  what: string,
): string | undefined {
  const { startZones, startDepthsM } = measured;
  if (!ctx.monitoring) {
    ctx.heldZones = new Map(startZones.map((z, i) => [z, Float64Array.from(startDepthsM[i]!)]));
    return undefined;
  }
  ctx.heldZones ??= new Map();
  const held = ctx.heldZones;
  for (const z of [...held.keys()]) if (!startZones.includes(z)) held.delete(z);
  const entered = startZones.find((z) => !held.has(z));
  const zones = ctx.cp.profile.keepOut.zones;
  if (entered !== undefined) {
    return edgeViolation(
      'INVARIANT.KEEP_OUT_PATH',
      `${what} is inside zone ${zones[entered]!.id} or its margin, which it was not in when the move was signed`,
    );
  }
  for (const [i, z] of startZones.entries()) {
    const sankM = sankDeeperM(held.get(z)!, startDepthsM[i]!, geometry);
    if (sankM > 0) {
      return edgeViolation(
        'INVARIANT.KEEP_OUT_DEEPER',
        `${what} is ${(sankM * 100).toFixed(1)} cm deeper in zone ${zones[z]!.id} (or its margin) than it has been since the move was signed, more than its plan may go between two samples: a robot inside a zone or its margin may only move out of it or along it`,
      );
    }
  }
  return undefined;
}

/**
 * How much deeper than allowed the measured depths `nowM` are against the shallowest so far (`shallowestM`,
 * updated in place when none is), m; 0 when every point is within the allowance. Depths of another length
 * (another skeleton) cannot be compared: that is a violation (fail closed).
 */
function sankDeeperM(
  shallowestM: Float64Array,
  nowM: Float64Array,
  { marginM, stepM }: { marginM: number; stepM: number },
): number {
  if (shallowestM.length !== nowM.length) return Number.POSITIVE_INFINITY;
  let worstM = 0;
  for (let f = 0; f < nowM.length; f++) {
    const floorM = Math.max(shallowestM[f]!, -marginM);
    const overM = nowM[f]! - floorM;
    if (overM > sinkSlackM(stepM) && overM > worstM) worstM = overM;
  }
  if (worstM > 0) return worstM;
  for (let f = 0; f < nowM.length; f++) shallowestM[f] = Math.min(shallowestM[f]!, nowM[f]!);
  return 0;
}
