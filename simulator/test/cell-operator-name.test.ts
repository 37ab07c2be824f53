/**
 * The simulated cell's operator key is named in the cell's trust file: the edge takes a consent signed with a
 * named key only for that operator (edge consent intake), so `consent grant --operator mallory` with the cell's
 * key is refused instead of putting another name in the audit trail.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { DEMO_OPERATOR_ID } from '../src/fleet/fleet-setup.js';
import { simulatedFirmware } from '../src/models/firmware-report.js';
import { DEFAULT_FIRMWARE_VERSION } from '../src/runner/scenario-runner.js';
import { loadScenario } from '../src/scenarios/load-scenario.js';
import { createRobotCredentials } from '../src/setup/robot-credentials.js';
import { scenarioPath } from './helpers/hil-groups.js';

t.test("the cell's operator key is trusted for the simulated operator only", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-cell-operator-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const { profile } = loadScenario(scenarioPath('consent-granted'));
  const credentials = await createRobotCredentials({
    stateDir: dir,
    profile,
    signedFirmware: simulatedFirmware(DEFAULT_FIRMWARE_VERSION),
  });
  const trust = JSON.parse(await readFile(credentials.trustPath, 'utf8')) as {
    keys: { role: string; name?: string }[];
  };
  t.same(
    trust.keys.filter((k) => k.role === 'operator').map((k) => k.name),
    [DEMO_OPERATOR_ID],
  );
});
