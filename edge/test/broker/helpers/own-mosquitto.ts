/**
 * A Mosquitto of the test's own: the shipped deploy/mosquitto.conf with its listener moved to a free
 * loopback port, the ACL written from a users table by `mosquittoAcl`, and a password file made by
 * `mosquitto_passwd`. The machine's own broker on 1883 is left alone.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { validateBrokerIdentities } from '../../../src/broker/broker-users.js';
import { mosquittoAcl } from '../../../src/broker/mosquitto-acl.js';

const run = promisify(execFile);
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const SHIPPED_CONF = join(repoRoot, 'deploy/mosquitto.conf');

export interface MosquittoUser {
  username: string;
  password: string;
  [field: string]: unknown;
}

export interface OwnMosquitto {
  url: string;
  port: number;
  acl: string;
  /** What mosquitto printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

function findBinary(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '')
    .split(':')
    .concat(['/usr/sbin', '/usr/bin', '/usr/local/sbin'])) {
    const path = join(dir, name);
    if (dir && existsSync(path)) return path;
  }
  return undefined;
}

/** Why Mosquitto cannot run here, or undefined when it can. */
export function mosquittoMissing(): string | undefined {
  if (!findBinary('mosquitto')) return 'no mosquitto binary (apt-get install mosquitto)';
  if (!findBinary('mosquitto_passwd')) return 'no mosquitto_passwd binary (apt-get install mosquitto)';
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Waits for mosquitto's "running" log line. Probing the port with a bare TCP connection instead would skew
 * the listener's connection count (Mosquitto 2.0.11 counts a socket closed before CONNECT twice).
 */
async function untilRunning(child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited (${child.exitCode}): ${log()}`);
    if (/mosquitto version \S+ running/.test(log())) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`mosquitto did not start within 10 s: ${log()}`);
}

/** Starts mosquitto with the shipped conf and the ACL of `users`; `overrides` replace options by name. */
export async function startOwnMosquitto(
  users: readonly MosquittoUser[],
  overrides: Record<string, string> = {},
): Promise<OwnMosquitto> {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-mosquitto-'));
  const acl = mosquittoAcl(validateBrokerIdentities(users.map(({ password: _p, ...identity }) => identity)));
  const aclPath = join(dir, 'acl');
  const passwdPath = join(dir, 'passwd');
  await writeFile(aclPath, acl);
  await writeFile(passwdPath, '', { mode: 0o600 });
  for (const user of users) {
    await run(findBinary('mosquitto_passwd') as string, ['-b', passwdPath, user.username, user.password]);
  }
  await chmod(passwdPath, 0o600);
  const port = await freePort();
  const conf = readFileSync(SHIPPED_CONF, 'utf8')
    .split('\n')
    .map((line) => {
      if (/^listener\s/.test(line)) return `listener ${port} 127.0.0.1`;
      if (/^password_file\s/.test(line)) return `password_file ${passwdPath}`;
      if (/^acl_file\s/.test(line)) return `acl_file ${aclPath}`;
      const name = line.split(/\s/)[0] as string;
      if (name in overrides) return `${name} ${overrides[name]}`;
      return line;
    });
  // Run as whoever we are: as root, mosquitto would otherwise switch to the `mosquitto` user and lose
  // access to the 0600 files above.
  conf.push(`user ${userInfo().username}`);
  const confPath = join(dir, 'mosquitto.conf');
  await writeFile(confPath, `${conf.join('\n')}\n`);
  const child = spawn(findBinary('mosquitto') as string, ['-c', confPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await untilRunning(child, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `mqtt://127.0.0.1:${port}`, port, acl, output: () => output, stop };
}
