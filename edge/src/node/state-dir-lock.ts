/**
 * One process per edge state directory. The directory holds the command sequence reservation, the spent
 * consent nonces and the audit outbox; two processes on one directory would each keep their own nonces in
 * memory (a consent token spent on one could be presented again to the other), reserve the same sequence
 * blocks and append two forks to one hash-chained outbox. So `edge run` (and `edge ship`, which reads the
 * outbox) take the directory's lock first and refuse to start while another process holds it.
 *
 * Two locks, for two reaches:
 * - On Linux, an abstract Unix socket named after the directory's device and inode: the kernel gives it to
 *   one process at a time and takes it back the moment that process dies, however it dies. It covers the
 *   processes of one host (one network namespace).
 * - proper-lockfile's lock, `edge.lock`: an atomic `mkdir` whose mtime the holder refreshes every
 *   LOCK_REFRESH_MS, stale after LOCK_STALE_MS; it covers processes that share the directory but not the
 *   host (containers with their own network namespace, a network file system).
 * A process killed without releasing leaves `edge.lock` behind; whoever holds the socket next knows no
 * process of this host holds the directory, so it takes over a lock whose owner record names this host at
 * once. That matters: a restarted edge sends its first STOP (for motions the dead process signed) as soon
 * as it holds the directory, not LOCK_STALE_MS later. A lock of another host is refused until it is stale.
 *
 * A holder whose `edge.lock` was taken over or could not be refreshed in time (a stalled event loop) is told
 * through `onLost` and must stop: it can no longer know it is alone. `edge.lock.owner` says who holds it.
 */
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { rmdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { EdgeRuntimeError } from './runtime-error.js';

/** A lock not refreshed for this long is stale: another host may take it over. */
export const LOCK_STALE_MS = 10_000;
/** How often the holder refreshes its lock. */
export const LOCK_REFRESH_MS = 2_000;

export const LOCK_NAME = 'edge.lock';
const OWNER_NAME = 'edge.lock.owner';

interface LockOwner {
  pid: number;
  hostname: string;
  /** What holds it: `edge run`, `edge ship`. */
  purpose: string;
  since: string;
}

export interface StateDirLock {
  /** Releases the lock (idempotent). */
  release(): Promise<void>;
}

export interface StateDirLockOptions {
  /** What takes the lock, for the owner record: `edge run`, `edge ship`. */
  purpose: string;
  /** Called once if the lock is lost while held (taken over, or not refreshed within LOCK_STALE_MS). */
  onLost: (err: Error) => void;
}

function readOwner(stateDir: string): LockOwner | undefined {
  try {
    return JSON.parse(readFileSync(join(stateDir, OWNER_NAME), 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

function inUseMessage(stateDir: string, owner: LockOwner | undefined): string {
  let refreshed = '';
  try {
    const ageS = (Date.now() - statSync(join(stateDir, LOCK_NAME)).mtimeMs) / 1000;
    refreshed = `; its lock ${join(stateDir, LOCK_NAME)} was refreshed ${ageS.toFixed(1)} s ago`;
  } catch {
    // released between the refusal and this look: the message still holds
  }
  const who =
    owner === undefined
      ? 'another process'
      : `another process (\`${owner.purpose}\`, pid ${owner.pid} on ${owner.hostname}, since ${owner.since})`;
  return (
    `state directory ${stateDir} is in use by ${who}${refreshed}. Two processes on one state directory ` +
    'would share its command sequence, spent consent nonces and audit outbox: stop the other one, or give ' +
    "this one its own --state-dir. (A stopped process's lock is no obstacle on its own host; another host's " +
    `goes stale ${LOCK_STALE_MS / 1000} s after its last refresh.)`
  );
}

async function acquire(stateDir: string, options: StateDirLockOptions) {
  return lockfile.lock(stateDir, {
    lockfilePath: join(stateDir, LOCK_NAME),
    realpath: false,
    stale: LOCK_STALE_MS,
    update: LOCK_REFRESH_MS,
    onCompromised: (err) => options.onLost(err),
  });
}

/**
 * The host-wide lock: an abstract socket on Linux. Elsewhere there is none (`unsupported`), and `edge.lock`
 * alone decides; `busy` when another live process of this host holds it.
 */
type HostLock = { state: 'held'; socket: Server } | { state: 'unsupported' } | { state: 'busy' };

async function hostLock(stateDir: string): Promise<HostLock> {
  if (process.platform !== 'linux') return { state: 'unsupported' };
  const { dev, ino } = statSync(stateDir);
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EADDRINUSE' ? resolve({ state: 'busy' }) : reject(err),
    );
    // A leading NUL names a socket in the abstract namespace: no file, gone with its process.
    server.listen(`\0pentagate-edge-state-dir:${dev}:${ino}`, () => {
      server.unref();
      resolve({ state: 'held', socket: server });
    });
  });
}

function releaseHostLock(host: HostLock): void {
  if (host.state === 'held') host.socket.close();
}

/** Takes the lock of `stateDir` (which must exist); throws EdgeRuntimeError STATE_DIR_IN_USE while another process holds it. */
export async function lockStateDir(stateDir: string, options: StateDirLockOptions): Promise<StateDirLock> {
  const host = await hostLock(stateDir);
  if (host.state === 'busy')
    throw new EdgeRuntimeError('STATE_DIR_IN_USE', inUseMessage(stateDir, readOwner(stateDir)));
  let unlock: () => Promise<void>;
  try {
    try {
      unlock = await acquire(stateDir, options);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      const owner = readOwner(stateDir);
      // Holding the host lock, no live process of this host holds the directory: a lock its owner record
      // places on this host was left by a process that stopped without releasing it.
      if (host.state !== 'held' || owner === undefined || owner.hostname !== hostname()) {
        throw new EdgeRuntimeError('STATE_DIR_IN_USE', inUseMessage(stateDir, owner));
      }
      await rmdir(join(stateDir, LOCK_NAME));
      unlock = await acquire(stateDir, options);
    }
  } catch (err) {
    releaseHostLock(host);
    throw err;
  }
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    purpose: options.purpose,
    since: new Date().toISOString(),
  };
  writeFileSync(join(stateDir, OWNER_NAME), `${JSON.stringify(owner)}\n`, { mode: 0o600 });
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      const current = readOwner(stateDir);
      if (current?.pid === owner.pid && current.hostname === owner.hostname) {
        rmSync(join(stateDir, OWNER_NAME), { force: true });
      }
      // A lock already lost (taken over) is not this process's to remove.
      await unlock().catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ERELEASED' && err.code !== 'ECOMPROMISED') throw err;
      });
      releaseHostLock(host);
    },
  };
}
