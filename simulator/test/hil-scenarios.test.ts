/**
 * Every bundled scenario, hardware-in-the-loop: the real `pentagate edge run` with its embedded broker as a
 * child process, the simulated robot and controller over MQTT; the consent and replay scenarios again with
 * the controller behind a socat serial line.
 */
import t from 'tap';
import { scenarioFiles } from '../src/cli/scenario-paths.js';
import { runScenario } from '../src/runner/scenario-runner.js';
import { loadScenario } from '../src/scenarios/load-scenario.js';
import { requireEdgeCli } from './helpers/edge-cli.js';

const SERIAL_TOO = new Set(['consent-granted', 'consent-replayed', 'attack-replayed-command']);

t.test('every scenario holds against the real edge', async (t) => {
  if (!requireEdgeCli(t)) return;
  for (const file of scenarioFiles()) {
    const loaded = loadScenario(file);
    const transports: ('mqtt' | 'serial')[] = SERIAL_TOO.has(loaded.scenario.name)
      ? ['mqtt', 'serial']
      : ['mqtt'];
    for (const transport of transports) {
      const result = await runScenario(loaded, { transport });
      const failed = result.expectations.filter((e) => !e.ok);
      t.ok(
        result.passed,
        `${loaded.scenario.name} over ${transport}`,
        failed.length > 0 ? { failed, edgeLog: result.edgeLogTail } : {},
      );
    }
  }
});
