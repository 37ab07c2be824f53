/**
 * The cell pool shares one edge among scenarios with the same edge configuration, starts another for a
 * different one, replaces a cell whose edge died, continues the telemetry seqs on a shared edge and closes
 * every cell at the end. Runs against the unsafe stand-in edge over the machine's Mosquitto (required when
 * CI=true), because only the pooling is under test here.
 */
import { createConnection } from 'node:net';
import t from 'tap';
import type { RobotCell, RobotCellFactory } from '../src/runner/robot-cell.js';
import { CellPool } from '../src/runner/cell-pool.js';
import { loadScenario } from '../src/scenarios/load-scenario.js';
import { scenarioPath } from './helpers/hil-groups.js';
import { unsafeEdgeCell } from './helpers/unsafe-edge.js';

function mosquittoUp(): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ port: 1883, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

t.test('one edge per configuration, replaced when it died, closed at the end', async (t) => {
  if (!(await mosquittoUp())) {
    if (process.env.CI) t.fail('Mosquitto is not listening on 127.0.0.1:1883 (required when CI=true)');
    else t.skip('Mosquitto is not listening on 127.0.0.1:1883; start it to run this test', () => {});
    return;
  }
  const cells: { cell: RobotCell; dead: boolean; closed: boolean }[] = [];
  const unsafe = unsafeEdgeCell();
  const factory: RobotCellFactory = async (credentials, profile) => {
    const inner = await unsafe(credentials, profile);
    const entry = { cell: inner, dead: false, closed: false };
    entry.cell = {
      ...inner,
      alive: () => !entry.dead,
      close: async () => {
        entry.closed = true;
        await inner.close();
      },
    };
    cells.push(entry);
    return entry.cell;
  };
  const pool = new CellPool(factory);
  // A robot id of its own: other tests use the scenarios' ids on the same Mosquitto at the same time.
  const load = (name: string) => {
    const loaded = loadScenario(scenarioPath(name));
    return { ...loaded, profile: { ...loaded.profile, robotId: `pool-test-${process.pid}` } };
  };
  const a = load('torque-limit');
  const b = load('keep-out-table');
  const c = load('calibration-expired');
  t.equal(
    CellPool.key(a, 400),
    CellPool.key(b, 400),
    'torque-limit and keep-out-table configure the edge alike',
  );
  t.not(CellPool.key(a, 400), CellPool.key(c, 400), 'expired calibration is another configuration');
  const first = await pool.run(a);
  const second = await pool.run(b);
  t.equal(pool.started, 1, 'the second scenario reused the edge');
  t.ok(second.trace.samples.length > 0 && second.lastTelemetrySeq > first.lastTelemetrySeq, 'seqs continue');
  await pool.run(c);
  t.equal(pool.started, 2, 'another configuration, another edge');
  cells[0]!.dead = true;
  await pool.run(a);
  t.equal(pool.started, 3, 'a dead edge is replaced');
  t.ok(cells[0]!.closed, 'and the dead one closed');
  await pool.close();
  t.ok(
    cells.every((e) => e.closed),
    'close() closes every cell',
  );
});
