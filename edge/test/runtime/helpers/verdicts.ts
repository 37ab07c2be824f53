/** Valid verdict events for tests that need one without running the gates. */
import { sha256Hex } from '@pentagate/crypto';
import type { VerdictEvent } from '@pentagate/protocol';

export function sampleVerdict(n: number, outcome: VerdictEvent['outcome'] = 'vetoed'): VerdictEvent {
  return {
    v: 1,
    robotId: 'r1',
    intentId: `intent-${n}`,
    outcome,
    atMs: 1_700_000_000_000 + n,
    violations: outcome === 'vetoed' ? [`RISK.HUMAN_IN_RADIUS: human at 0.${n % 10} m < radius 1.20 m`] : [],
    gates: [
      {
        vertex: 'RISK',
        passed: outcome !== 'vetoed',
        violations: [],
        evidence: { nearestHumanM: n / 10 },
      },
    ],
    evidenceDigest: sha256Hex(`evidence ${n}`),
  };
}
