/**
 * Registers a simulated robot with a cloud through the cloud's own command line (before the cloud serves):
 * a tenant, the robot with its command key id, profile digest and firmware manifests, its edge key (kept
 * in a 0600 file for `edge run --cloud-key-file`), an operator API key for the approvals queue and the
 * live view (also in a 0600 file, for `consent grant --cloud-key-file`), an agent API key (0600 file) for
 * an agent builder's first calls to the same cloud, and the simulated operator's own consent public key,
 * enrolled so the cloud accepts and relays the tokens it signs.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RobotCredentials } from '../setup/robot-credentials.js';
import { runPentagateJson } from './pentagate-cli.js';

export interface FleetRegistration {
  tenantId: string;
  robotId: string;
  edgeKeyPath: string;
  operatorKey: string;
  operatorKeyPath: string;
  /** A key of scope agent (department finance): /api/v1/agentgate/…, /api/v1/selfcorrect and GovClient. */
  agentKey: string;
  agentKeyPath: string;
  /** The operator id the simulated operator's consent key is enrolled for. */
  operatorId: string;
}

/** The simulated operator's id (runner/operator.ts signs consent statements with it). */
export const DEMO_OPERATOR_ID = 'operator-sim';

export async function registerDemoRobot(
  cloudStateDir: string,
  robotId: string,
  credentials: RobotCredentials,
): Promise<FleetRegistration> {
  const state = ['--state-dir', cloudStateDir];
  // Each step is a process of its own (a few seconds each on a loaded machine): independent ones run together.
  const [tenant, check] = await Promise.all([
    runPentagateJson<{ id: string }>(['cloud', 'tenant', 'create', 'demo', ...state]),
    runPentagateJson<{ cfgDigest: string }>(['edge', 'check', '--profile', credentials.profilePath]),
  ]);
  const issueKey = (scope: 'operator' | 'agent', ...binding: string[]) =>
    runPentagateJson<{ key: string }>([
      ...['cloud', 'apikey', 'issue', '--tenant', tenant.id, '--scope', scope],
      ...binding,
      ...state,
    ]);
  const [robot, operator, agent] = await Promise.all([
    runPentagateJson<{ edgeKey: string }>([
      'cloud',
      'robot',
      'add',
      '--tenant',
      tenant.id,
      '--robot',
      robotId,
      '--command-kid',
      credentials.hmacKey.kid,
      '--profile-digest',
      check.cfgDigest,
      ...credentials.firmwareManifestPaths.flatMap((p) => ['--firmware', p]),
      ...state,
    ]),
    issueKey('operator'),
    // the finance department, as in cloud/README.md "Run it": the example policy lets only finance pay
    issueKey('agent', '--department', 'finance'),
    runPentagateJson<{ kid: string }>([
      'cloud',
      'operator',
      'enroll',
      '--tenant',
      tenant.id,
      '--operator',
      DEMO_OPERATOR_ID,
      '--key',
      credentials.operatorKeyPath,
      ...state,
    ]),
  ]);
  const edgeKeyPath = join(cloudStateDir, `${robotId}.edge-key`);
  const operatorKeyPath = join(cloudStateDir, 'operator.api-key');
  const agentKeyPath = join(cloudStateDir, 'agent.api-key');
  await Promise.all([
    writeFile(edgeKeyPath, `${robot.edgeKey}\n`, { mode: 0o600 }),
    writeFile(operatorKeyPath, `${operator.key}\n`, { mode: 0o600 }),
    writeFile(agentKeyPath, `${agent.key}\n`, { mode: 0o600 }),
  ]);
  return {
    tenantId: tenant.id,
    robotId,
    edgeKeyPath,
    operatorKey: operator.key,
    operatorKeyPath,
    agentKey: agent.key,
    agentKeyPath,
    operatorId: DEMO_OPERATOR_ID,
  };
}
