/**
 * How much keep-out checking one plan may cost. The sweeps sample a path every `minZoneThicknessM` of travel,
 * so their work grows with the path's length, which the planner chooses: a 290-byte intent swinging the UR5e's
 * base joint between ±10⁴ rad (vetoed anyway, for its limits) asked for 656,000 samples and held the event loop
 * for 0.65 s; a few more points, for minutes. Meanwhile the node handles nothing — no proximity frame, no
 * monitor tick — so a person walking into a running motion is not stopped. A plan is also re-swept along its
 * remaining path on every telemetry frame while it runs.
 *
 * So the sample count, known in O(points × joints) before any sweep, is held to MAX_PATH_SAMPLES (≈5 ms of
 * sweeping here, within the 20 ms the specification gives a safety veto, §1.12): a longer plan is vetoed with
 * `INVARIANT.PATH_TOO_LONG` without sweeping it (fail closed), and the planner sends it in shorter pieces, as
 * the controller's watchdog already asks of long motions.
 */
import { edgeViolation } from '@pentagate/protocol';

/**
 * Most keep-out samples one sweep of a plan may take: 100 m of frame travel at 2 cm spacing, where a 3 rad turn
 * of every UR5e joint is ≈ 570.
 */
export const MAX_PATH_SAMPLES = 5_000;

/** The violation for a plan over the budget, or undefined when it fits. */
export function pathSampleProblem(samples: number, spacingM: number): string | undefined {
  if (samples <= MAX_PATH_SAMPLES) return undefined;
  return edgeViolation(
    'INVARIANT.PATH_TOO_LONG',
    `the keep-out check needs ${samples} samples (one per ${spacingM} m of travel) > ${MAX_PATH_SAMPLES}: send the motion in shorter pieces`,
  );
}
