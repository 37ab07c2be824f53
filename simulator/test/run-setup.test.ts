/**
 * The pieces a hardware-in-the-loop run sets up around the edge: the timing floor applied to the profile the
 * edge gets, the broker accounts hashed with the edge's own `hash-password`, and the lead-in intent.
 */
import { join } from 'node:path';
import { loadBrokerUsers, verifyPassword } from '@pentagate/edge/commands';
import type { VerdictEvent } from '@pentagate/protocol';
import t from 'tap';
import { brokerAccountsFor, hashWithEdgeCli, proximitySources } from '../src/edge/broker-accounts.js';
import { PENTAGATE_BIN } from '../src/edge/edge-process.js';
import { ArmModel } from '../src/models/arm-model.js';
import { LEAD_IN_INTENT_ID, LeadIn } from '../src/runner/lead-in.js';
import { withTimingFloor } from '../src/runner/timing-floor.js';
import { loadScenario } from '../src/scenarios/load-scenario.js';
import { scenarioPath } from './helpers/hil-groups.js';

const { profile } = loadScenario(scenarioPath('human-enters-radius'));

t.test('the timing floor raises short maxAgeMs and validForMs only', async (t) => {
  const raised = withTimingFloor(profile, 400);
  const byName = new Map(raised.sources.map((s) => [s.name, s.maxAgeMs]));
  t.equal(byName.get('joint_states'), 400, 'joint states 50 → 400 ms');
  t.equal(byName.get('battery'), 2000, 'a longer maxAgeMs is kept');
  t.equal(raised.command.validForMs, 400);
  t.equal(
    profile.sources.find((s) => s.name === 'joint_states')?.maxAgeMs,
    50,
    'the original is not changed',
  );
  t.equal(withTimingFloor(profile, 0), profile, '0 leaves the profile as written');
});

t.test('broker accounts carry scrypt hashes the edge accepts for their passwords', async (t) => {
  const accounts = await brokerAccountsFor(PENTAGATE_BIN, 'ur5e-01', proximitySources(profile));
  t.same(
    accounts.users.map((u) => [u.username, u.role, u.robotId, u.sources]),
    [
      ['sim-ur5e-01', 'simulator', 'ur5e-01', undefined],
      ['sensor-ur5e-01', 'sensor', 'ur5e-01', ['proximity-front', 'proximity-rear']],
      ['operator-ur5e-01', 'operator', 'ur5e-01', undefined],
    ],
  );
  t.notOk(
    JSON.stringify(accounts.users).includes(accounts.simulator.password),
    'no clear password in the file',
  );
  const table = await loadBrokerUsers(accounts.users);
  const stored = table.byName.get('sim-ur5e-01')?.passwordHash ?? '';
  t.ok(await verifyPassword(accounts.simulator.password, stored), 'the edge verifies the simulator password');
  t.notOk(await verifyPassword(accounts.operator.password, stored), 'and refuses another');
  const sensorStored = table.byName.get('sensor-ur5e-01')?.passwordHash ?? '';
  t.ok(await verifyPassword(accounts.sensor?.password ?? '', sensorStored), 'and the sensor password');
  await t.rejects(hashWithEdgeCli(join(import.meta.dirname, 'no-such-bin.js'), 'x'), {
    code: 'EDGE_START_FAILED',
  });
});

t.test('the lead-in asks to hold position and owns only its own verdicts', async (t) => {
  const arm = new ArmModel(profile.joints, [0.1, -1.5, 1.5, -1.5, -1.5, 0]);
  const leadIn = new LeadIn(profile.robotId, arm);
  t.notOk(leadIn.sent);
  const intent = leadIn.intent();
  t.ok(leadIn.sent);
  t.equal(intent.intentId, LEAD_IN_INTENT_ID);
  if (intent.kind !== 'joint-trajectory') throw new Error('expected a joint trajectory');
  t.same(
    intent.points.at(-1)?.positionsRad,
    [0.1, -1.5, 1.5, -1.5, -1.5, 0],
    'the target is where the arm is',
  );
  const verdict: VerdictEvent = {
    v: 1,
    robotId: profile.robotId,
    outcome: 'signed',
    atMs: 0,
    violations: [],
    gates: [],
  };
  t.notOk(leadIn.owns({ ...verdict, intentId: 'pick' }, 1000));
  t.notOk(leadIn.done(5000), 'not done before its verdict');
  t.ok(leadIn.owns({ ...verdict, intentId: LEAD_IN_INTENT_ID }, 1000));
  t.notOk(leadIn.done(1100), 'the hold is still running');
  t.ok(leadIn.done(1200));
  const base = new LeadIn('base-01', undefined).intent();
  t.equal(base.kind, 'base-twist');
});
