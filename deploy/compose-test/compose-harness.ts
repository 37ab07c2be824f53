/**
 * Drives `docker-compose.yml` for the end-to-end test: one project per run (its own containers, networks and
 * volumes), host ports chosen free at start, and helpers to run commands in services, read logs, break things
 * and wait for conditions. Everything runs against the local Docker engine; nothing leaves this machine.
 */
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const repoRoot = join(import.meta.dirname, '../..');

/** The compose CLI found on this machine: the v2 plugin (`docker compose`) or the v1 program (`docker-compose`). */
export async function composeCommand(): Promise<string[]> {
  try {
    await run('docker', ['compose', 'version']);
    return ['docker', 'compose'];
  } catch {
    await run('docker-compose', ['version']);
    return ['docker-compose'];
  }
}

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ComposeProject {
  readonly name: string;
  readonly httpPort: number;
  readonly mqttPort: number;
  /** Runs the compose CLI for this project; rejects with its stderr when it exits non-zero. */
  compose(args: string[], options?: { timeoutMs?: number }): Promise<string>;
  /** `pentagate …` inside a running service. */
  pentagate(service: string, args: string[]): Promise<string>;
  logs(service: string): Promise<string>;
  /** The container id of a service. */
  container(service: string): Promise<string>;
  docker(args: string[]): Promise<string>;
}

export async function openProject(name: string): Promise<ComposeProject> {
  const command = await composeCommand();
  const httpPort = await freePort();
  const mqttPort = await freePort();
  const env = {
    ...process.env,
    PENTAGATE_HTTP_PORT: String(httpPort),
    PENTAGATE_MQTT_PORT: String(mqttPort),
    COMPOSE_PROJECT_NAME: name,
  };
  const exec = async (file: string, args: string[], timeoutMs = 600_000): Promise<string> => {
    try {
      const { stdout } = await run(file, args, {
        cwd: repoRoot,
        env,
        timeout: timeoutMs,
        maxBuffer: 64 << 20,
      });
      return stdout;
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      throw new Error(
        `${file} ${args.join(' ')} failed: ${(e.stderr || e.message).trim().split('\n').slice(-6).join('\n')}`,
      );
    }
  };
  const [file, ...prefix] = command as [string, ...string[]];
  const project: ComposeProject = {
    name,
    httpPort,
    mqttPort,
    compose: (args, options) => exec(file, [...prefix, '-p', name, ...args], options?.timeoutMs),
    pentagate: (service, args) =>
      project.compose(['exec', '-T', service, 'node', '/app/bin/pentagate.js', ...args], {
        timeoutMs: 60_000,
      }),
    logs: (service) => project.compose(['logs', '--no-color', service], { timeoutMs: 60_000 }),
    container: async (service) => (await project.compose(['ps', '-q', service])).trim(),
    docker: (args) => exec('docker', args, 120_000),
  };
  return project;
}

/** Runs a shell script from the repository (the documented set-up steps), streaming nothing. */
export async function runScript(script: string, args: string[] = []): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn('bash', [join(repoRoot, script), ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${script} exited ${code}: ${stderr.trim()}`)),
    );
  });
}

/** Polls `check` until it returns a value (not undefined) or `timeoutMs` passes. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  everyMs = 500,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`,
  );
}
