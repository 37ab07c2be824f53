/**
 * The expectations can fail (used by the hil-unsafe-edge-*.test.ts files): against a stand-in edge that signs everything (test/helpers/unsafe-edge.ts),
 * every scenario that protects one of the five vertices must fail, and fail on an expectation about what the
 * robot did or what the edge decided — not on a technicality. Uses the machine's Mosquitto (required when
 * CI=true). The wire-attack and watchdog scenarios are left out: there the controller is the defence, and it
 * holds whatever the edge signs.
 */
import { createConnection } from 'node:net';
import type { Test } from 'tap';
import { runScenario } from '../../src/runner/scenario-runner.js';
import { loadScenario } from '../../src/scenarios/load-scenario.js';
import { HIL_GROUPS, scenarioPath } from './hil-groups.js';
import { unsafeEdgeCell } from './unsafe-edge.js';

const VERTICES = new Set(['INVARIANT', 'ECONOMY', 'RISK', 'PROVENANCE', 'CONSENT']);

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

/** Runs the vertex-covering scenarios of `groups` against the unsafe edge; each must fail. */
export async function unsafeEdgeFailsGroups(
  t: Test,
  groups: readonly (keyof typeof HIL_GROUPS)[],
  minimum: number,
): Promise<void> {
  if (!(await mosquittoUp())) {
    if (process.env.CI) t.fail('Mosquitto is not listening on 127.0.0.1:1883 (required when CI=true)');
    else t.skip('Mosquitto is not listening on 127.0.0.1:1883; start it to run this test', () => {});
    return;
  }
  const safety = groups
    .flatMap((g) => HIL_GROUPS[g] as readonly string[])
    .map((name) => loadScenario(scenarioPath(name)))
    .filter((l) => l.scenario.covers.some((c) => VERTICES.has(c)));
  t.ok(safety.length >= minimum, `${safety.length} safety scenarios`);
  for (const loaded of safety) {
    const name = loaded.scenario.name;
    const result = await runScenario(loaded, { cell: unsafeEdgeCell() });
    const failed = result.expectations.filter((e) => !e.ok).map((e) => e.name);
    t.notOk(result.passed, `${name} fails against the unsafe edge (${failed.join('; ')})`);
    if (name === 'human-enters-radius') {
      t.ok(failed.includes('noMotionWhile humanInRadius'), `${name}: motion with a person inside is caught`);
    }
  }
}
