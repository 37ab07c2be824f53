/**
 * The expectations can fail: against a stand-in edge that signs everything, the safety scenarios must not
 * pass. Uses the machine's Mosquitto (required when CI=true).
 */
import { createConnection } from 'node:net';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { loadScenario } from '../src/scenarios/load-scenario.js';
import { runScenario } from '../src/runner/scenario-runner.js';
import { unsafeEdgeCell } from './helpers/unsafe-edge.js';

const scenario = (name: string) => fileURLToPath(new URL(`../scenarios/${name}.yaml`, import.meta.url));

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

t.test('an edge that signs everything fails the safety scenarios', async (t) => {
  if (!(await mosquittoUp())) {
    if (process.env.CI) t.fail('Mosquitto is not listening on 127.0.0.1:1883 (required when CI=true)');
    else t.skip('Mosquitto is not listening on 127.0.0.1:1883; start it to run this test');
    return;
  }
  for (const name of ['human-enters-radius']) {
    const result = await runScenario(loadScenario(scenario(name)), { cell: unsafeEdgeCell() });
    const failed = result.expectations.filter((e) => !e.ok).map((e) => e.name);
    t.notOk(result.passed, `${name} fails against the unsafe edge (${failed.join('; ')})`);
    t.ok(failed.includes('noMotionWhile humanInRadius'), `${name}: motion with a person inside is caught`);
  }
});
