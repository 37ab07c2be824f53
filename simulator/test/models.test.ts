/** The robot models on simulated time: arm dynamics and limits, base kinematics, battery sag, sensors. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RobotProfile } from '@pentagate/protocol';
import t from 'tap';
import { parse } from 'yaml';
import { ArmModel } from '../src/models/arm-model.js';
import { BatteryModel } from '../src/models/battery-model.js';
import { DiffDriveBase } from '../src/models/diff-drive-base.js';
import { PersonPath } from '../src/models/person-path.js';
import { ProximitySensor } from '../src/models/proximity-sensor.js';
import { SeededRandom } from '../src/models/random.js';
import { toWireJson } from '../src/transport/wire-json.js';

const profile = (name: string) =>
  parse(
    readFileSync(fileURLToPath(new URL(`../../edge/profiles/${name}.yaml`, import.meta.url)), 'utf8'),
  ) as RobotProfile;
const arm = profile('ur5e-arm');
const base = profile('mobile-base');
const HOME = [0, -1.571, 1.571, -1.571, -1.571, 0];

t.test(
  'arm gravity torque grows with the horizontal lever arm and vanishes on the vertical axis',
  async (t) => {
    const model = new ArmModel(arm.joints, HOME);
    const upright = model.gravityTorquesNm([0, -Math.PI / 2, 0, -Math.PI / 2, 0, 0]);
    const stretched = model.gravityTorquesNm([0, 0, 0, 0, 0, 0]);
    t.equal(upright[0], 0, 'the base joint turns about the vertical: no gravity torque');
    t.ok(
      Math.abs(stretched[1]!) > Math.abs(upright[1]!) * 3,
      'the shoulder holds more with the arm stretched out',
    );
    // Stretched along x: shoulder torque = g · Σ m_k · |x_k| for the links outboard of it (point masses at midpoints).
    t.ok(
      Math.abs(stretched[1]!) > 50 && Math.abs(stretched[1]!) < 150,
      `UR5e-like shoulder torque ${stretched[1]} N·m`,
    );
    model.payloadKg = 5;
    t.ok(
      Math.abs(model.gravityTorquesNm([0, 0, 0, 0, 0, 0])[1]!) > Math.abs(stretched[1]!) + 30,
      'a payload adds torque',
    );
  },
);

t.test('arm tracks setpoints within velocity and position limits and reports inertial torque', async (t) => {
  const model = new ArmModel(arm.joints, HOME);
  model.step(10, [1, ...HOME.slice(1)]);
  t.ok(Math.abs(model.state.positionsRad[0]! - 0.0314) < 1e-9, 'one step moves at most velocity limit × dt');
  t.ok(model.isMoving(), 'moving');
  t.not(model.effortsNm()[0], 0, 'accelerating the base joint takes torque');
  model.step(10, [100, ...HOME.slice(1)]);
  t.equal(model.limitClamps[0], 1, 'a setpoint beyond the position limit is clamped and counted');
  model.step(10);
  model.step(10);
  t.notOk(model.isMoving(), 'no setpoint: the brakes hold');
  t.ok(model.mechanicalPowerW() >= 0, 'power is non-negative');
});

t.test('differential drive integrates straight lines and arcs, and saturates the wheels', async (t) => {
  const b = new DiffDriveBase(base.base!);
  for (let i = 0; i < 100; i++) b.step(10, { linearMps: 0.5, angularRadS: 0 });
  t.ok(Math.abs(b.pose.xM - 0.5) < 1e-9, 'one second at 0.5 m/s');
  const turn = new DiffDriveBase(base.base!);
  for (let i = 0; i < 100; i++) turn.step(10, { linearMps: 0, angularRadS: 1 });
  t.ok(Math.abs(turn.pose.yawRad - 1) < 1e-9, 'turns on the spot');
  t.ok(Math.abs(turn.pose.xM) < 1e-9, 'without moving');
  const fast = new DiffDriveBase(base.base!);
  fast.step(10, { linearMps: 10, angularRadS: 0 });
  t.equal(fast.linearMps, base.base!.maxLinearMps, 'wheel speed capped at the profile top speed');
  t.ok(fast.mechanicalPowerW() > 0, 'rolling resistance costs power');
});

t.test('battery voltage sags under load and state of charge falls with energy drawn', async (t) => {
  const bat = new BatteryModel(arm.battery, 0.5);
  bat.step(1000, 0);
  const idle = bat.reading();
  bat.step(3_600_000, 100);
  const loaded = bat.reading();
  t.ok(loaded.voltageV < idle.voltageV - 0.1, `sag ${idle.voltageV} → ${loaded.voltageV} V`);
  t.ok(
    Math.abs(loaded.voltageV * loaded.currentA - 100) < 1e-6,
    `terminal power ${loaded.voltageV * loaded.currentA} W equals the load`,
  );
  t.ok(Math.abs(bat.stateOfCharge - (0.5 - 100 / arm.battery.capacityWh)) < 1e-9, '100 Wh drawn');
  bat.setStateOfCharge(2);
  t.equal(bat.stateOfCharge, 1, 'state of charge is clamped');
});

t.test('people walk their paths; sensors add noise, latency, dropouts and faults', async (t) => {
  const p = new PersonPath('p', [
    { atMs: 1000, xM: 2, yM: 0 },
    { atMs: 0, xM: 4, yM: 0 },
  ]);
  t.equal(p.distanceM(500), 3, 'halfway between waypoints');
  t.equal(p.distanceM(5000), 2, 'stays at the last waypoint');
  t.throws(() => new PersonPath('q', []), /at least one waypoint/);
  const sensor = new ProximitySensor(
    {
      robotId: 'r',
      source: 'lidar',
      rateHz: 25,
      noiseSigmaM: 0,
      latencyMs: 20,
      dropoutProbability: 0,
      rangeM: 5,
    },
    new SeededRandom(7),
  );
  t.same(sensor.step(1000, 2), [], 'a reading is not delivered before its latency');
  const [f] = sensor.step(1020, 2);
  t.equal(f?.nearestHumanM, 2, 'delivered after the latency');
  t.equal(sensor.step(1060, 9)[0]?.nearestHumanM, null, 'beyond range: nobody');
  sensor.setFault('stale');
  const stale = sensor.step(1100, 1);
  t.equal(stale[0]?.seq, 2, 'a frozen driver repeats its last seq');
  sensor.setFault('nan');
  const nan = sensor.step(1200, 1);
  t.ok(Number.isNaN(nan[0]?.nearestHumanM), 'NaN fault');
  t.match(toWireJson(nan[0]), /"nearestHumanM":NaN/, 'NaN goes on the wire as a bare token, never as null');
  sensor.setFault('dropout');
  sensor.step(1300, 1); // readings taken before the cable came off still arrive
  t.same(sensor.step(1500, 1), [], 'dropout: nothing at all');
  const lossy = new ProximitySensor({ ...sensor.options, dropoutProbability: 1 }, new SeededRandom(1));
  lossy.step(0, 1);
  t.equal(lossy.droppedReadings, 1, 'random dropouts are counted');
  const a = new SeededRandom(3);
  const b = new SeededRandom(3);
  t.equal(a.gaussian(1), b.gaussian(1), 'the noise is reproducible from the seed');
});
