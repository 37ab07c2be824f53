/**
 * The edge node under test, started the way an integrator starts it: the real `pentagate edge run` CLI as a
 * child process with the embedded broker (`--mqtt embedded:PORT`). The simulator never imports edge code
 * (ARCHITECTURE.md §1); everything it knows about the edge comes over MQTT. The command line is built in one
 * place (`edgeRunArgs`) so it is easy to check against the CLI's usage.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SimulatorError } from '../errors.js';
import type { RobotCredentials } from '../setup/robot-credentials.js';
import { brokerAccountsFor } from './broker-accounts.js';
import { killOnExit, processGroupOptions } from './own-process-group.js';
import type { MqttEndpoint } from '../transport/mqtt-connection.js';

/** The repository's `bin/pentagate.js`, found from this file (src/ or dist/ alike). */
export const PENTAGATE_BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../../bin/pentagate.js');

export interface BrokerAccounts {
  /** The simulated robot: telemetry, intents, the command topic (controller), verdicts. */
  robot: MqttEndpoint;
  /** The proximity sensors: their sources alone, which the robot's account may not publish. */
  sensor?: MqttEndpoint;
  /** The simulated operator: consent tokens. */
  operator: MqttEndpoint;
}

export interface EdgeProcessOptions {
  credentials: RobotCredentials;
  robotId: string;
  /** The sources bound to the sensor account (broker-accounts.ts#proximitySources). */
  sensorSources: readonly string[];
  /** Embedded broker port (0 is not allowed: the simulator must know where to connect). */
  mqttPort: number;
  /** Where the edge's stdout/stderr go (a log file path), or undefined to keep them in memory. */
  logPath?: string;
  startTimeoutMs?: number;
  /** The edge's pino level (default info). */
  logLevel?: string;
  /** Ship the audit outbox to this cloud with the robot's edge key (`--cloud`, `--cloud-key-file`). */
  cloud?: { url: string; keyPath: string };
  /** Start the edge in its own process group, so a terminal's Ctrl-C reaches only its supervisor. */
  ownProcessGroup?: boolean;
}

/** The `pentagate edge run` argument vector that starts the edge for this cell (see `edge run --help`). */
export function edgeRunArgs(o: {
  credentials: RobotCredentials;
  mqttPort: number;
  /** The `--broker-users` JSON array (scrypt `passwordHash` only; the edge makes its own account). */
  brokerUsersPath: string;
  logLevel?: string;
  cloud?: { url: string; keyPath: string };
}): string[] {
  const c = o.credentials;
  return [
    'edge',
    'run',
    '--profile',
    c.profilePath,
    '--hmac-key',
    c.hmacKeyPath,
    '--mqtt',
    `embedded:${o.mqttPort}`,
    '--broker-users',
    o.brokerUsersPath,
    '--state-dir',
    join(c.stateDir, 'edge'),
    '--log-level',
    o.logLevel ?? 'info',
    ...c.firmwareManifestPaths.flatMap((p) => ['--firmware', p]),
    ...c.calibrationPaths.flatMap((p) => ['--calibration', p]),
    ...(o.cloud ? ['--cloud', o.cloud.url, '--cloud-key-file', o.cloud.keyPath] : []),
  ];
}

/** The line `pentagate edge run` prints on stderr once its broker, transport and node are up. */
export function edgeReadyLine(robotId: string): RegExp {
  return new RegExp(`pentagate edge run: serving robot ${robotId.replace(/[.]/g, '\\.')}\\b`);
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolveOpen) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolveOpen(true);
    });
    socket.once('error', () => resolveOpen(false));
  });
}

/** True when nothing listens on the port (so the embedded broker can take it). */
export async function portFree(port: number): Promise<boolean> {
  return !(await portOpen(port));
}

/**
 * Refuses a taken port up front, naming the option that changes it (`--mqtt-port`, the embedded broker's,
 * by default): the child that would take it names only its own option.
 */
export async function requirePortFree(
  port: number,
  option = 'mqtt-port',
  forWhat = 'the embedded broker',
): Promise<void> {
  if (!(await portFree(port))) {
    throw new SimulatorError(
      'PORT_IN_USE',
      `port ${port} is already in use: pass --${option} with a free port for ${forWhat}`,
    );
  }
}

export class EdgeProcess {
  readonly child: ChildProcess;
  readonly accounts: BrokerAccounts;
  readonly output: string[] = [];
  #exited: Promise<number | null>;

  private constructor(child: ChildProcess, accounts: BrokerAccounts) {
    this.child = child;
    this.accounts = accounts;
    this.#exited = once(child, 'exit').then(([code]) => code as number | null);
    const keep = (chunk: Buffer) => {
      this.output.push(chunk.toString('utf8'));
      if (this.output.length > 2000) this.output.splice(0, 1000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  /** Starts the edge and resolves once its broker accepts connections and the node reports it runs. */
  static async start(options: EdgeProcessOptions): Promise<EdgeProcess> {
    const { credentials, robotId, mqttPort } = options;
    await requirePortFree(mqttPort);
    const accounts = await brokerAccountsFor(PENTAGATE_BIN, robotId, options.sensorSources);
    const brokerUsersPath = join(credentials.stateDir, 'broker-users.json');
    await writeFile(brokerUsersPath, `${JSON.stringify(accounts.users, null, 2)}\n`, { mode: 0o600 });
    const args = edgeRunArgs({
      credentials,
      mqttPort,
      brokerUsersPath,
      ...(options.logLevel ? { logLevel: options.logLevel } : {}),
      ...(options.cloud ? { cloud: options.cloud } : {}),
    });
    const child = spawn(process.execPath, [PENTAGATE_BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...processGroupOptions(options.ownProcessGroup),
    });
    if (options.ownProcessGroup) killOnExit(child);
    const url = `mqtt://127.0.0.1:${mqttPort}`;
    const edge = new EdgeProcess(child, {
      robot: { url, ...accounts.simulator },
      ...(accounts.sensor ? { sensor: { url, ...accounts.sensor } } : {}),
      operator: { url, ...accounts.operator },
    });
    await edge.#waitReady(edgeReadyLine(robotId), options.startTimeoutMs ?? 30_000);
    return edge;
  }

  async #waitReady(ready: RegExp, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let exitCode: number | null | undefined;
    void this.#exited.then((c) => {
      exitCode = c;
    });
    while (Date.now() < deadline) {
      if (exitCode !== undefined) {
        throw new SimulatorError(
          'EDGE_START_FAILED',
          `the edge exited with code ${exitCode} while starting: ${this.log().trim().split('\n').slice(-5).join(' | ')}`,
        );
      }
      if (ready.test(this.log())) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    this.child.kill('SIGKILL');
    throw new SimulatorError(
      'EDGE_START_FAILED',
      `the edge did not report ready (${ready.source}) within ${timeoutMs} ms: ${this.log().trim().split('\n').slice(-5).join(' | ')}`,
    );
  }

  log(): string {
    return this.output.join('');
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  async stop(graceMs = 5000): Promise<number | null> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.child.exitCode;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    const code = await this.#exited;
    clearTimeout(timer);
    return code;
  }
}
