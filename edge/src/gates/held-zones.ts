/**
 * The keep-out zones a motion may be inside. A move may start inside a zone, or its margin, and leave it
 * (joint-path-sweep.ts, "already inside"), so the sweep holds such a zone to the no-deeper rule
 * (zone-depth-ratchet.ts) instead of vetoing every sample in it. While a motion runs, its remaining
 * path is swept from the measured state (remaining-path-sweep.ts), and that excuse, recomputed on each
 * re-check, excused whatever zone the robot had drifted into since it was signed, as long as the rest of the
 * plan left it again: an arm sagging into the table or swinging into the operator station ran on.
 * (Within a zone that is held, each re-sweep starts its no-deeper rule from the measured state: a robot that
 * sinks deeper than its plan between two re-checks is not stopped for that alone.)
 *
 * So the zones held are fixed when the command is signed (the zones that held its start) and only shrink: a
 * re-check that finds the measured state out of a held zone drops it (re-entering it is then a hit, as in one
 * sweep), and a measured state inside any zone not held is INVARIANT.KEEP_OUT_PATH.
 */
import { edgeViolation } from '@pentagate/protocol';
import type { GateContext } from './gate-context.js';

/**
 * Updates `ctx.heldZones` from the zones whose margin holds the measured state (`startZones`, indexes, from the
 * sweep) and returns the violation for a zone the state is in but may not be, if any. Deciding: the start
 * zones become the held set. Monitoring: a held zone the state has left is dropped; a motion without a held
 * set (none was recorded) holds none (fail closed).
 */
export function enteredZoneViolation(
  ctx: GateContext,
  startZones: readonly number[],
  what: string,
): string | undefined {
  if (!ctx.monitoring) {
    ctx.heldZones = new Set(startZones);
    return undefined;
  }
  ctx.heldZones ??= new Set();
  const held = ctx.heldZones;
  for (const z of held) if (!startZones.includes(z)) held.delete(z);
  const entered = startZones.find((z) => !held.has(z));
  if (entered === undefined) return undefined;
  const zone = ctx.cp.profile.keepOut.zones[entered]!;
  return edgeViolation(
    'INVARIANT.KEEP_OUT_PATH',
    `${what} is inside zone ${zone.id} or its margin, which it was not in when the move was signed`,
  );
}
