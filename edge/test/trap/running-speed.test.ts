/**
 * RISK's separation distance grows with the robot's speed (ISO/TS 15066 §5.5.4). A motion signed while an
 * earlier, faster one runs replaces it on the controller only if the controller takes the new command; one
 * lost, late or refused leaves the robot on the fast motion. Monitoring judged the newest plan's speed, so
 * signing a slow move let a person come closer than the fast one allows while the robot still ran it. RISK now
 * judges the fastest motion that may still be running (trap/motion-monitor.ts, fastestRunning).
 */
import t from 'tap';
import { HOME, T0, armIntent, armProfile, feedHealthy, makeGate, proximity } from './fixtures.js';

/**
 * The shoulder lifts 1 rad in 0.5 s with the arm stretched: a peak well above 1 m/s at the flange. Forward,
 * away from the wall behind the arm: tilted back, the wrist's stopping point came within 2 cm of it.
 */
const fastLift = () =>
  armIntent({
    points: [
      {
        positionsRad: HOME.map((q, i) => (i === 1 ? q - 1 : q)),
        effortsNm: [20, 60, 30, 5, 2, 1],
        timeFromStartMs: 500,
      },
    ],
  });

const peakOf = (r: { verdict: { gates: { vertex: string; evidence: Record<string, unknown> }[] } }) =>
  r.verdict.gates.find((g) => g.vertex === 'RISK')?.evidence.planPeakSpeedMps as number;

t.test('while a faster motion may still run, RISK judges its speed', async (t) => {
  for (const slowSigned of [false, true]) {
    const { gate, profile } = makeGate(
      armProfile((p) => {
        for (const s of p.sources) s.maxAgeMs = 60_000;
      }),
    );
    feedHealthy(gate, profile, T0);
    const fast = gate.trapAndSign(fastLift(), T0);
    t.equal(fast.kind, 'signed', String(fast.verdict.violations));
    // S_p(f) = 0.15 f² + 0.58 f + 0.43 m for the example terms (plan-speed.test.ts): a person at 1.3 m is
    // inside S_p of the fast lift (f > 1.2) and outside that of the slow pan (S_p < 0.9 m).
    t.ok(peakOf(fast) > 1.3, `fast lift peaks at ${peakOf(fast)} m/s`);
    if (slowSigned) {
      const slow = gate.trapAndSign(armIntent(), T0 + 20);
      t.equal(slow.kind, 'signed');
      t.ok(peakOf(slow) < 0.7, `slow pan peaks at ${peakOf(slow)} m/s`);
    }
    const at = T0 + 40;
    const outcome = gate.ingestTelemetry(proximity(profile.robotId, 'proximity-front', at, 1.3), at);
    t.equal(outcome.stop?.setpoints.kind, 'stop', `slow move signed: ${slowSigned}: a STOP`);
    t.match(outcome.verdict?.violations.join('\n'), /RISK\.SEPARATION/);
  }
});

t.test('once the faster motion would have ended, the slower one is judged by its own speed', async (t) => {
  const { gate, profile } = makeGate(
    armProfile((p) => {
      for (const s of p.sources) s.maxAgeMs = 60_000;
    }),
  );
  feedHealthy(gate, profile, T0);
  t.equal(gate.trapAndSign(fastLift(), T0).kind, 'signed');
  // the slow pan, 5 s long, signed 20 ms later; the fast lift ends by T0 + validForMs + 500 ms at the latest
  const long = armIntent({
    points: [
      {
        positionsRad: HOME.map((q, i) => (i === 0 ? q + 0.4 : q)),
        effortsNm: [20, 60, 30, 5, 2, 1],
        timeFromStartMs: 5000,
      },
    ],
  });
  t.equal(gate.trapAndSign(long, T0 + 20).kind, 'signed');
  const at = T0 + 20 + profile.command.validForMs + 600;
  const outcome = gate.ingestTelemetry(proximity(profile.robotId, 'proximity-front', at, 1.3), at);
  t.equal(outcome.stop, undefined, String(outcome.verdict?.violations));
  t.ok(gate.activeMotion, 'the slow motion runs on');
});
