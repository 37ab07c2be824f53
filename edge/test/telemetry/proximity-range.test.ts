/**
 * `maxRangeM` on a proximity source: a reading past the sensor's range (millimetres sent as metres) is refused
 * and withdraws the source, so RISK reads it as missing and vetoes a move or stops the one running. Without
 * it the reading passes as far away, which `edge check` and `edge run` warn about.
 */
import type { RobotProfile } from '@pentagate/protocol';
import t from 'tap';
import { checkRobotProfileValue } from '../../src/profile/load-profile.js';
import { profileWarnings } from '../../src/profile/profile-warnings.js';
import { T0, armIntent, armProfile, feedHealthy, makeGate, proximity } from '../trap/fixtures.js';

const RANGE_M = 10;
const ranged = () =>
  armProfile((p) => {
    for (const s of p.sources) if (s.kind === 'proximity') s.maxRangeM = RANGE_M;
  });

t.test('a reading past the range is refused and withdraws the source: RISK vetoes', async (t) => {
  const { gate, profile } = makeGate(ranged());
  feedHealthy(gate, profile, T0, 4);
  t.equal(gate.trapAndSign(armIntent(), T0).kind, 'signed', 'a person 4 m away, inside the range: signed');

  const mm = gate.ingestTelemetry(proximity(profile.robotId, 'proximity-front', T0 + 1, 500), T0 + 1);
  t.equal(mm.accepted, false, 'a person 500 mm away sent as 500 is refused');
  t.match(mm.reason, /out-of-range: proximity-front: nearestHumanM 500 m is beyond the sensor's 10 m range/);
  t.match(mm.reason, /millimetres/, 'the refusal names the likely cause');

  const r = gate.trapAndSign(armIntent(), T0 + 2);
  t.equal(r.kind, 'veto', 'the next move is vetoed');
  t.match(r.verdict.violations, [/^RISK\.MISSING_DATA: .*proximity-front.*withdrawn/]);

  t.equal(
    gate.ingestTelemetry(proximity(profile.robotId, 'proximity-front', T0 + 3, 4), T0 + 3).accepted,
    true,
  );
  t.equal(
    gate.trapAndSign(armIntent(), T0 + 3).kind,
    'signed',
    'a reading in range makes the source usable again',
  );
});

t.test('a running motion is stopped by a reading past the range', async (t) => {
  const { gate, profile } = makeGate(ranged());
  feedHealthy(gate, profile, T0, null);
  t.equal(gate.trapAndSign(armIntent(), T0).kind, 'signed');
  const outcome = gate.ingestTelemetry(proximity(profile.robotId, 'proximity-rear', T0 + 5, 300), T0 + 5);
  t.equal(outcome.stop?.setpoints.kind, 'stop', 'a signed STOP');
  t.match(outcome.verdict, { outcome: 'stopped', violations: [/^RISK\.MISSING_DATA/] });
});

t.test('the range bounds readings only: nobody seen, and readings up to the range, pass', async (t) => {
  const { gate, profile } = makeGate(ranged());
  feedHealthy(gate, profile, T0, null);
  for (const [i, m] of [null, 0, RANGE_M].entries()) {
    const r = gate.ingestTelemetry(proximity(profile.robotId, 'proximity-front', T0 + i, m), T0 + i);
    t.equal(r.accepted, true, `nearestHumanM ${m}: taken`);
  }
  const past = gate.ingestTelemetry(
    proximity(profile.robotId, 'proximity-front', T0 + 9, RANGE_M + 0.001),
    T0 + 9,
  );
  t.equal(past.accepted, false, 'just past the range: refused');
});

t.test('without maxRangeM the reading passes as far away, and the profile is warned about', async (t) => {
  const { gate, profile } = makeGate(armProfile());
  feedHealthy(gate, profile, T0, 500);
  t.equal(gate.trapAndSign(armIntent(), T0).kind, 'signed', 'what the range exists to refuse');
  const warnings = profileWarnings(profile).filter((w) => /maxRangeM/.test(w.path));
  t.same(
    warnings.map((w) => w.path),
    ['sources[1].maxRangeM', 'sources[2].maxRangeM'],
    'one warning per proximity source without a range',
  );
  t.match(warnings[0]?.message, /proximity-front.*millimetres/);
  t.same(
    profileWarnings(ranged()).filter((w) => /maxRangeM/.test(w.path)),
    [],
    'no warning once each names its range',
  );
});

t.test('maxRangeM on a source of another kind is a profile problem', async (t) => {
  const p: RobotProfile = armProfile((q) => {
    const battery = q.sources.find((s) => s.kind === 'battery');
    if (battery) battery.maxRangeM = 5;
  });
  const check = checkRobotProfileValue(p);
  t.equal(check.profile, undefined, 'invalid');
  t.match(check.problems, [
    { path: /^sources\[\d+\]\.maxRangeM$/, message: /battery: only a proximity source/ },
  ]);
  t.equal(checkRobotProfileValue(ranged()).profile?.robotId, 'ur5e-01', 'valid on proximity sources');
});
