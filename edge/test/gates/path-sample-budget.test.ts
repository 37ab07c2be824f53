/**
 * The keep-out sweeps sample a path every minZoneThicknessM of travel, so their cost is the planner's to choose.
 * Before the budget, a 290-byte intent swinging the base joint between ±10⁴ rad held the event loop for 0.65 s
 * (656,000 samples), four such points for 3.3 s, a 64 KiB intent for minutes — while no proximity frame and no
 * monitor tick was handled, so a person walking into a running motion was not stopped. Now the sample count is
 * known before sweeping, and a plan over MAX_PATH_SAMPLES is vetoed with INVARIANT.PATH_TOO_LONG at once.
 */
import { type Intent, hasEdgeViolation } from '@pentagate/protocol';
import t from 'tap';
import { MAX_PATH_SAMPLES } from '../../src/gates/path-sample-budget.js';
import { HOME, T0, armIntent, baseIntent, baseProfile, feedHealthy, makeGate } from '../trap/fixtures.js';

type ArmIntent = Extract<Intent, { kind: 'joint-trajectory' }>;

/** The arm at HOME (upright): turning the base joint keeps every frame clear of every zone. */
function panSwings(amplitudeRad: number, points: number, segmentMs: number): ArmIntent {
  return armIntent({
    intentId: 'pan-swings',
    points: Array.from({ length: points }, (_, i) => ({
      positionsRad: HOME.map((q, k) => (k === 0 ? (i % 2 === 0 ? amplitudeRad : -amplitudeRad) : q)),
      timeFromStartMs: (i + 1) * segmentMs,
    })),
  });
}

function judge(intent: Intent, setup = makeGate()) {
  const { gate, profile } = setup;
  feedHealthy(gate, profile);
  const started = performance.now();
  const r = gate.trapAndSign(intent, T0 + 1);
  return { r, ms: performance.now() - started };
}

const invariant = (r: ReturnType<typeof judge>['r']) => r.verdict.gates.find((g) => g.vertex === 'INVARIANT');

t.test('a tiny intent asking for millions of samples is vetoed at once, unswept', async (t) => {
  const { r, ms } = judge(panSwings(1e4, 4, 1));
  t.equal(r.kind, 'veto');
  t.ok(hasEdgeViolation(invariant(r)?.violations ?? [], 'INVARIANT.PATH_TOO_LONG'), 'PATH_TOO_LONG');
  t.notOk('pathSamples' in (invariant(r)?.evidence ?? {}), 'no sweep ran');
  // It took 3.3 s before; 500 ms leaves room for a loaded machine and none for a sweep of 4.6 million samples.
  t.ok(ms < 500, `judged in ${ms.toFixed(0)} ms`);
});

t.test('a plan within every joint limit but longer than the budget is vetoed too', async (t) => {
  // 30 swings of 12 rad at 3 rad/s (limit 3.14): 360 rad of the base joint, ≈ 23,600 samples at 2 cm.
  const { r } = judge(panSwings(6, 30, 4000));
  t.equal(r.kind, 'veto');
  const violations = invariant(r)?.violations ?? [];
  t.ok(hasEdgeViolation(violations, 'INVARIANT.PATH_TOO_LONG'), JSON.stringify(violations));
  t.match(violations.join('\n'), new RegExp(`> ${MAX_PATH_SAMPLES}: send the motion in shorter pieces`));
  t.notOk(hasEdgeViolation(violations, 'INVARIANT.VELOCITY_LIMIT'), 'not vetoed for its speed');
});

t.test('an ordinary pick is still swept and signed', async (t) => {
  const { r } = judge(armIntent());
  t.equal(r.kind, 'signed', JSON.stringify(r.verdict.gates.flatMap((g) => g.violations)));
  t.ok((invariant(r)?.evidence.pathSamples as number) > 1, 'swept');
});

t.test('a base twist held for an hour is vetoed unswept, whatever its speed', async (t) => {
  const fast = judge(
    baseIntent({ linearMps: { x: 0, y: 0, z: 100 }, durationMs: 3_600_000 }),
    makeGate(baseProfile()),
  );
  t.ok(hasEdgeViolation(invariant(fast.r)?.violations ?? [], 'INVARIANT.PATH_TOO_LONG'));
  t.ok(fast.ms < 500, `judged in ${fast.ms.toFixed(0)} ms (7.2 million samples before)`);
  const slow = judge(
    baseIntent({ linearMps: { x: 0.5, y: 0, z: 0 }, durationMs: 3_600_000 }),
    makeGate(baseProfile()),
  );
  t.ok(hasEdgeViolation(invariant(slow.r)?.violations ?? [], 'INVARIANT.PATH_TOO_LONG'));
  const short = judge(baseIntent(), makeGate(baseProfile()));
  t.equal(short.r.kind, 'signed', JSON.stringify(short.r.verdict.gates.flatMap((g) => g.violations)));
});
