/**
 * While a motion runs, the keep-out sweep of its remaining path (the check whose cost the planner chooses) is
 * repeated at most every MONITOR_PATH_SWEEP_PERIOD_MS, so joint states at a controller's rate cannot take the
 * whole event loop; every check of the measured state still runs on every frame, and a STOP from RISK does
 * not wait for a sweep.
 */
import {
  type EdgeViolationCode,
  type Intent,
  type RobotProfile,
  hasEdgeViolation,
} from '@pentagate/protocol';
import t, { type Test } from 'tap';
import { MONITOR_PATH_SWEEP_PERIOD_MS } from '../../src/trap/motion-monitor.js';
import {
  HOME,
  T0,
  armIntent,
  armProfile,
  baseIntent,
  baseProfile,
  feedHealthy,
  jointState,
  makeGate,
  pose,
  proximity,
} from './fixtures.js';

/** A gate fed healthy telemetry that signed `intent` on `profile` at T0. */
function signedMotion(profile: RobotProfile, intent: Intent) {
  const setup = makeGate(profile);
  feedHealthy(setup.gate, setup.profile);
  const signed = setup.gate.trapAndSign(intent, T0);
  if (signed.kind !== 'signed') throw new Error(JSON.stringify(signed.verdict.violations));
  return setup;
}

/** A base driving +x from x = 5 for 2 s at 0.5 m/s: its path is clear of pillar-1 at x = 10. */
const drivingBase = () => signedMotion(baseProfile(), baseIntent());

/** The UR5e arm running the fixtures' 20-point move. */
const movingArm = () => signedMotion(armProfile(), armIntent());

/** `violations` name `code` (the message lists them all when they do not). */
function names(t: Test, violations: readonly string[] | undefined, code: EdgeViolationCode): void {
  t.ok(hasEdgeViolation(violations ?? [], code), `${code} in ${String(violations)}`);
}

t.test(
  'a pose that puts the remaining path into a zone stops the motion within the sweep period',
  async (t) => {
    const { gate, profile } = drivingBase();
    // The base slid to x = 9.3: the second left of its drive now reaches the pillar.
    const early = T0 + MONITOR_PATH_SWEEP_PERIOD_MS - 4;
    const first = gate.ingestTelemetry(pose(profile.robotId, early, 9.3), early);
    t.equal(first.stop, undefined, 'the path swept at signing is not swept again within the period');
    t.ok(gate.activeMotion, 'still monitored');

    const due = T0 + MONITOR_PATH_SWEEP_PERIOD_MS;
    const stopped = gate.monitor(due);
    t.equal(stopped?.stop.setpoints.kind, 'stop', 'the monitor tick sweeps it');
    names(t, stopped?.verdict.violations, 'INVARIANT.KEEP_OUT_PATH');
  },
);

t.test('every frame is swept once the period has passed since the last sweep', async (t) => {
  const { gate, profile } = drivingBase();
  const at = T0 + MONITOR_PATH_SWEEP_PERIOD_MS;
  t.equal(gate.ingestTelemetry(pose(profile.robotId, at, 5.1), at).stop, undefined, 'a clear path, swept');
  // Swept at `at`: a frame 9 ms later is not swept again, one 10 ms later is.
  const skipped = at + MONITOR_PATH_SWEEP_PERIOD_MS - 1;
  t.equal(gate.ingestTelemetry(pose(profile.robotId, skipped, 9.3), skipped).stop, undefined);
  const swept = at + MONITOR_PATH_SWEEP_PERIOD_MS;
  const outcome = gate.ingestTelemetry(pose(profile.robotId, swept, 9.3), swept);
  names(t, outcome.verdict?.violations, 'INVARIANT.KEEP_OUT_PATH');
});

t.test('a clock that went back stops the motion at once', async (t) => {
  const { gate, profile } = drivingBase();
  const back = T0 - 1;
  const outcome = gate.ingestTelemetry(pose(profile.robotId, back, 9.3), back);
  t.equal(outcome.stop?.setpoints.kind, 'stop');
  // every frame arrived after the clock's "now", so none is fresh: RISK stops it without waiting for the sweep
  names(t, outcome.verdict?.violations, 'RISK.STALE_DATA');
});

t.test('RISK, measured torque and staleness are checked on every frame in between', async (t) => {
  const base = drivingBase();
  const person = base.gate.ingestTelemetry(
    proximity(base.profile.robotId, 'proximity-360', T0 + 1, 0.2),
    T0 + 1,
  );
  t.equal(person.stop?.setpoints.kind, 'stop', 'a person 1 ms after signing is stopped for at once');
  names(t, person.verdict?.violations, 'RISK.HUMAN_IN_RADIUS');

  const arm = movingArm();
  const heavy = arm.gate.ingestTelemetry(
    jointState(arm.profile, T0 + 2, undefined, [10, 400, 20, 2, 1, 0.5]),
    T0 + 2,
  );
  names(t, heavy.verdict?.violations, 'INVARIANT.MEASURED_TORQUE');

  const stale = drivingBase();
  const late = T0 + 150; // the pose (maxAgeMs 100) went stale; no sweep is due for it to be read
  names(t, stale.gate.monitor(late)?.verdict.violations, 'INVARIANT.STALE_DATA');
});

t.test('a measured joint past its position limit between two sweeps stops the motion', async (t) => {
  const arm = movingArm();
  // the elbow (limits ±3.142 rad) measured at 3.2 rad, 2 ms after the sweep at signing
  const past = HOME.map((q, i) => (i === 2 ? 3.2 : q));
  const outcome = arm.gate.ingestTelemetry(jointState(arm.profile, T0 + 2, past), T0 + 2);
  t.equal(outcome.stop?.setpoints.kind, 'stop');
  names(t, outcome.verdict?.violations, 'INVARIANT.POSITION_LIMIT');
});

t.test('a STOP that RISK makes certain does not wait for a sweep due on the same frame', async (t) => {
  const arm = movingArm();
  const motion = arm.gate.activeMotion;
  if (!motion) throw new Error('no motion');
  const due = T0 + MONITOR_PATH_SWEEP_PERIOD_MS;
  const person = arm.gate.ingestTelemetry(proximity(arm.profile.robotId, 'proximity-front', due, 0.2), due);
  t.equal(person.stop?.setpoints.kind, 'stop');
  names(t, person.verdict?.violations, 'RISK.HUMAN_IN_RADIUS');
  t.equal(motion.pathSweptAtMs, T0, 'the sweep due at the same time was not run');
  t.equal(motion.planTailSweeps.tailsSwept, 0, 'nor any part of it');

  // the same frame with nobody near: the sweep due is run
  const clear = movingArm();
  const going = clear.gate.activeMotion;
  const nobody = clear.gate.ingestTelemetry(proximity(clear.profile.robotId, 'proximity-front', due, 4), due);
  t.equal(nobody.stop, undefined);
  t.equal(going?.pathSweptAtMs, due, 'swept when the period had passed');
});
