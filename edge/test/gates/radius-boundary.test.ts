/**
 * RISK's operating radius is a closed disc: a person measured exactly at the radius is in it, and the move is
 * vetoed (it was let through: the test was `<`). Just outside it, the radius does not veto.
 */
import { hasEdgeViolation } from '@pentagate/protocol';
import t from 'tap';
import { T0, armIntent, feedHealthy, makeGate } from '../trap/fixtures.js';

t.test('a person exactly at the operating radius is inside it', async (t) => {
  for (const [offsetM, inside] of [
    [0, true],
    [0.001, false],
  ] as const) {
    const { gate, profile } = makeGate();
    const radiusM = profile.risk.operatingRadiusM;
    feedHealthy(gate, profile, T0, radiusM + offsetM);
    const result = gate.trapAndSign(armIntent(), T0);
    t.equal(
      hasEdgeViolation(result.verdict.violations, 'RISK.HUMAN_IN_RADIUS'),
      inside,
      `a person at radius + ${offsetM} m: ${result.verdict.violations.join('; ') || 'no violation'}`,
    );
    if (inside) t.match(result.verdict.violations.join('\n'), /human at 1\.20* m = radius 1\.20* m/);
  }
});
