/**
 * A planner's waypoint velocities can neither switch a check off nor move the arm off the path the gates
 * checked (outside review):
 * - the stopping point of a waypoint is judged from the larger of the planned and the arriving velocity, so a
 *   declared 0 on a point the arm reaches at 3 rad/s does not hide the overshoot into the table;
 * - the signed command carries no velocities: the gates sweep the joint-space-linear path, and a trajectory
 *   controller given velocities interpolates cubic splines that can swing far off it.
 */
import { dhTable, frameOrigins } from '@pentagate/edge';
import t from 'tap';
import { T0, armIntent, feedHealthy, jointState, makeGate } from '../trap/fixtures.js';

const pose = (liftRad: number) => [0, liftRad, 1.571, -1.571, -1.571, 0];

t.test('a declared 0 velocity does not hide the stopping point of a fast arrival', async (t) => {
  const { gate, profile } = makeGate();
  const dh = dhTable(profile.joints.map((j) => j.dh));
  const lowestZ = (q: number[]) => {
    const o = frameOrigins(dh, q, new Float64Array(18));
    return Math.min(...[0, 1, 2, 3, 4, 5].map((f) => o[3 * f + 2]!));
  };
  // The shoulder lift at which the arm's lowest frame is 4 cm above the table (the table zone ends at -2 cm).
  let [lo, hi] = [-1.571, -0.071];
  for (let k = 0; k < 60; k++) {
    const mid = (lo + hi) / 2;
    if (lowestZ(pose(mid)) > 0.04) lo = mid;
    else hi = mid;
  }
  t.ok(lowestZ(pose(lo + 0.3)) < -0.02, 'a stop 0.3 rad late would put the arm in the table');
  for (const declared of [undefined, [0, 0, 0, 0, 0, 0]]) {
    feedHealthy(gate, profile, T0);
    gate.ingestTelemetry(jointState(profile, T0, pose(lo - 1.5)), T0);
    const fast = armIntent({
      points: [
        {
          positionsRad: pose(lo),
          effortsNm: [5, 5, 5, 5, 5, 5],
          timeFromStartMs: 500,
          ...(declared ? { velocitiesRadS: declared } : {}),
        },
      ],
    });
    const { verdict } = gate.trapAndSign(fast, T0);
    t.equal(verdict.outcome, 'vetoed', `1.5 rad in 0.5 s, velocities ${JSON.stringify(declared)}: vetoed`);
    t.match(
      verdict.violations.join('\n'),
      /INVARIANT\.KEEP_OUT_STOP: predicted stopping point .* in zone table-top/,
    );
  }
});

t.test('the signed command carries positions, times and efforts, not the planned velocities', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile, T0);
  const move = armIntent();
  move.points = move.points.map((p) => ({ ...p, velocitiesRadS: [0.4, 0, 0, 0, 0, 0] }));
  const r = gate.trapAndSign(move, T0);
  t.equal(r.kind, 'signed', r.verdict.violations.join('; '));
  const setpoints = r.kind === 'signed' ? r.command.setpoints : undefined;
  t.same(
    setpoints?.kind === 'joint' ? setpoints.points : undefined,
    move.points.map(({ positionsRad, effortsNm, timeFromStartMs }) => ({
      positionsRad,
      effortsNm,
      timeFromStartMs,
    })),
  );
});
