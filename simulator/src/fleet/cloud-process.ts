/**
 * The cloud as the demo and the fleet tests run it: the real `pentagate cloud serve` as a child process on
 * loopback, with its SQLite store and signing key in a state directory. It can be killed (SIGKILL, as a
 * crash) and started again on the same port and state, which is what an edge's link must survive.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { SimulatorError } from '../errors.js';
import { PENTAGATE_BIN } from '../edge/edge-process.js';
import { killOnExit, processGroupOptions } from '../edge/own-process-group.js';

export interface CloudProcessOptions {
  stateDir: string;
  /** 0 picks a free port at the first start; restarts reuse the port it got. */
  port: number;
  startTimeoutMs?: number;
  /** Start the cloud in its own process group, so a terminal's Ctrl-C reaches only its supervisor. */
  ownProcessGroup?: boolean;
  /** `cloud serve --policy`: the tenant policy agents' calls are decided by (without one, all are refused). */
  policyFile?: string;
}

export class CloudProcess {
  readonly stateDir: string;
  #port: number;
  #child: ChildProcess | undefined;
  #url = '';
  readonly #startTimeoutMs: number;
  readonly #ownProcessGroup: boolean;
  readonly #policyFile: string | undefined;
  readonly output: string[] = [];

  /** A cloud not started yet: `restart()` starts it. */
  constructor(options: CloudProcessOptions) {
    this.stateDir = options.stateDir;
    this.#port = options.port;
    // a cold start of node + the cloud's modules took 25 s on this project's shared machine under load
    this.#startTimeoutMs = options.startTimeoutMs ?? 120_000;
    this.#ownProcessGroup = options.ownProcessGroup ?? false;
    this.#policyFile = options.policyFile;
  }

  static async start(options: CloudProcessOptions): Promise<CloudProcess> {
    const cloud = new CloudProcess(options);
    await cloud.restart();
    return cloud;
  }

  /** The cloud's URL; known before the first start when the port was given. */
  get url(): string {
    return this.#url || `http://127.0.0.1:${this.#port}`;
  }

  get running(): boolean {
    return this.#child !== undefined;
  }

  /** Starts `pentagate cloud serve` (again) and resolves with its URL once it listens. */
  async restart(): Promise<string> {
    if (this.#child) return this.#url;
    const child = spawn(
      process.execPath,
      [
        PENTAGATE_BIN,
        'cloud',
        'serve',
        '--port',
        String(this.#port),
        '--host',
        '127.0.0.1',
        '--state-dir',
        this.stateDir,
        '--log-level',
        'warn',
        '--json',
        ...(this.#policyFile ? ['--policy', this.#policyFile] : []),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], ...processGroupOptions(this.#ownProcessGroup) },
    );
    if (this.#ownProcessGroup) killOnExit(child);
    this.#child = child;
    child.stderr?.on('data', (chunk: Buffer) => this.#keep(chunk));
    const exited = once(child, 'exit');
    let stdout = '';
    const ready = new Promise<string>((resolve) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        const line = stdout.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve((JSON.parse(line) as { url: string }).url);
      });
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new SimulatorError(
              'CLOUD_FAILED',
              `the cloud did not start within ${this.#startTimeoutMs} ms: ${this.log()}`,
            ),
          ),
        this.#startTimeoutMs,
      );
    });
    try {
      this.#url = await Promise.race([
        ready,
        timeout,
        exited.then(([code]) => {
          throw new SimulatorError(
            'CLOUD_FAILED',
            `the cloud exited with code ${code} while starting: ${this.log()}`,
          );
        }),
      ]);
    } catch (err) {
      child.kill('SIGKILL');
      this.#child = undefined;
      throw err;
    } finally {
      clearTimeout(timer);
    }
    this.#port = Number(new URL(this.#url).port);
    void exited.then(() => {
      if (this.#child === child) this.#child = undefined;
    });
    return this.#url;
  }

  /** Kills the cloud without warning (a crash or a power cut of its machine). */
  async kill(): Promise<void> {
    await this.#end('SIGKILL');
  }

  /** SIGTERM: drains in-flight requests and closes the store. */
  async stop(): Promise<void> {
    await this.#end('SIGTERM');
  }

  async #end(signal: NodeJS.Signals): Promise<void> {
    const child = this.#child;
    if (!child) return;
    this.#child = undefined;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  log(): string {
    return this.output.join('').trim().split('\n').slice(-5).join(' | ');
  }

  #keep(chunk: Buffer): void {
    this.output.push(chunk.toString('utf8'));
    if (this.output.length > 500) this.output.splice(0, 250);
  }
}
