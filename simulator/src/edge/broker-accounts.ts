/**
 * The embedded broker's accounts for the simulated robot, its proximity sensors and its operator. The
 * sensors get an account of their own (role `sensor`, listing their sources): a source listed by one account
 * is closed to every other, so whoever holds the planner's password cannot publish "nobody there" on the
 * safety lidar's topic. The edge's `--broker-users` file holds only scrypt hashes (`passwordHash`), never
 * clear passwords, so the simulator hashes the way an integrator does: with `pentagate edge hash-password
 * --password-file F` (the edge's own hash function, reached through its CLI because the simulator never
 * imports edge code, ARCHITECTURE.md §1).
 *
 * Hashing costs a CLI start (~1 s) per password, so each simulator process makes its passwords once and
 * reuses them for every edge it starts; the accounts are bound to a robot id only when the users file is
 * written.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RobotProfile } from '@pentagate/protocol';
import { SimulatorError } from '../errors.js';

const run = promisify(execFile);

/** Roles of the edge's broker (edge/src/broker/topic-rules.ts) the simulator's accounts take. */
export type SimulatorRole = 'simulator' | 'sensor' | 'operator' | 'planner' | 'controller';

/** The accounts whose passwords a simulator process makes. */
type AccountKind = 'simulator' | 'sensor' | 'operator' | 'robot';

export interface HashedPassword {
  password: string;
  passwordHash: string;
}

/** One entry of the edge's `--broker-users` JSON array (edge/src/broker/broker-users.ts). */
export interface BrokerUserEntry {
  username: string;
  role: SimulatorRole;
  robotId: string;
  /** The telemetry sources this account alone publishes (role `sensor`). */
  sources?: string[];
  passwordHash: string;
}

export interface SimulatorAccount {
  username: string;
  password: string;
}

/** Hashes a password with `pentagate edge hash-password` (the password travels in a 0600 file, never argv). */
export async function hashWithEdgeCli(pentagateBin: string, password: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-sim-pw-'));
  try {
    const file = join(dir, 'password');
    await writeFile(file, `${password}\n`, { mode: 0o600 });
    const { stdout } = await run(
      process.execPath,
      [pentagateBin, 'edge', 'hash-password', '--password-file', file],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    const hash = stdout.trim();
    if (!hash.startsWith('scrypt$')) {
      throw new SimulatorError(
        'EDGE_START_FAILED',
        `pentagate edge hash-password: expected a line starting scrypt$, got ${JSON.stringify(hash.slice(0, 40))}`,
      );
    }
    return hash;
  } catch (err) {
    if (err instanceof SimulatorError) throw err;
    throw new SimulatorError(
      'EDGE_START_FAILED',
      `pentagate edge hash-password failed (is the edge package built? npm run build): ${(err as Error).message}`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const cached = new Map<AccountKind, Promise<HashedPassword>>();

/** This process's password for one kind of account, with its hash (made once, on first use). */
export function accountPassword(pentagateBin: string, kind: AccountKind): Promise<HashedPassword> {
  let made = cached.get(kind);
  if (!made) {
    made = (async () => {
      const password = randomBytes(18).toString('base64url');
      return { password, passwordHash: await hashWithEdgeCli(pentagateBin, password) };
    })();
    made.catch(() => cached.delete(kind));
    cached.set(kind, made);
  }
  return made;
}

/** This process's simulator, sensor and operator passwords with their hashes (made once, on first use). */
export async function simulatorPasswords(
  pentagateBin: string,
): Promise<Record<'simulator' | 'sensor' | 'operator', HashedPassword>> {
  const [simulator, sensor, operator] = await Promise.all(
    (['simulator', 'sensor', 'operator'] as const).map((kind) => accountPassword(pentagateBin, kind)),
  );
  return { simulator: simulator!, sensor: sensor!, operator: operator! };
}

/** The sources the sensor account speaks for: the profile's proximity (human-detection) sources. */
export function proximitySources(profile: Pick<RobotProfile, 'sources'>): string[] {
  return profile.sources.filter((s) => s.kind === 'proximity').map((s) => s.name);
}

/**
 * The users file entries and the matching logins for one robot. `sensorSources` (proximitySources) are
 * bound to the sensor account; with none there is no sensor account (role `sensor` must list a source).
 */
export async function brokerAccountsFor(
  pentagateBin: string,
  robotId: string,
  sensorSources: readonly string[],
): Promise<{
  users: BrokerUserEntry[];
  simulator: SimulatorAccount;
  sensor?: SimulatorAccount;
  operator: SimulatorAccount;
}> {
  const pw = await simulatorPasswords(pentagateBin);
  const simulator = { username: `sim-${robotId}`, password: pw.simulator.password };
  const sensor = { username: `sensor-${robotId}`, password: pw.sensor.password };
  const operator = { username: `operator-${robotId}`, password: pw.operator.password };
  const withSensor = sensorSources.length > 0;
  return {
    users: [
      { username: simulator.username, role: 'simulator', robotId, passwordHash: pw.simulator.passwordHash },
      ...(withSensor
        ? [
            {
              username: sensor.username,
              role: 'sensor' as const,
              robotId,
              sources: [...sensorSources],
              passwordHash: pw.sensor.passwordHash,
            },
          ]
        : []),
      { username: operator.username, role: 'operator', robotId, passwordHash: pw.operator.passwordHash },
    ],
    simulator,
    ...(withSensor ? { sensor } : {}),
    operator,
  };
}
