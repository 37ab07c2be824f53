/**
 * Pinning the benchmark process to one CPU with util-linux `taskset`, for the figures an issue asks to
 * be measured "on one core". `taskset -a -p` changes the affinity of every thread of the running
 * process (the JS thread, V8's GC helpers and the libuv pool), and threads started later inherit it,
 * so no re-exec is needed and each suite can be pinned separately. The previous CPU list is restored
 * afterwards. Without taskset (macOS, containers without util-linux) nothing is pinned and the result
 * says so.
 */
import { execFileSync } from 'node:child_process';

export interface CpuPinning {
  pinned: boolean;
  /** The CPU the process runs on while pinned. */
  cpu?: number;
  /** How (or why not) it was pinned, for the suite's notes. */
  how: string;
  restore(): void;
}

function taskset(args: string[]): string {
  return execFileSync('taskset', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The process's current CPU list, e.g. `0-3` or `0,2`; undefined without taskset. */
export function currentCpuList(pid = process.pid): string | undefined {
  try {
    // "pid 1234's current affinity list: 0,1"
    return taskset(['-c', '-p', String(pid)])
      .trim()
      .split(': ')
      .pop();
  } catch {
    return undefined;
  }
}

/** Expands `0-2,5` to [0, 1, 2, 5]. */
export function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.split(',')) {
    const [from, to] = part.split('-').map((s) => Number.parseInt(s, 10));
    if (from === undefined || Number.isNaN(from)) continue;
    for (let c = from; c <= (to ?? from); c++) cpus.push(c);
  }
  return cpus;
}

const notPinned = (how: string): CpuPinning => ({ pinned: false, how, restore: () => {} });

/**
 * Pins to `cpu`, or by default to the highest CPU currently allowed (CPU 0 takes most interrupts and
 * housekeeping on Linux).
 */
export function pinToOneCore(cpu?: number): CpuPinning {
  const previous = currentCpuList();
  if (previous === undefined) return notPinned('not pinned: taskset (util-linux) is not available');
  const allowed = parseCpuList(previous);
  const chosen = cpu ?? allowed[allowed.length - 1];
  if (chosen === undefined || !allowed.includes(chosen)) {
    return notPinned(`not pinned: CPU ${cpu} is not in this process's CPU list ${previous}`);
  }
  try {
    taskset(['-a', '-c', '-p', String(chosen), String(process.pid)]);
  } catch (error) {
    return notPinned(`not pinned: taskset failed (${(error as Error).message.split('\n')[0]})`);
  }
  let restored = false;
  return {
    pinned: true,
    cpu: chosen,
    how: `pinned to CPU ${chosen} with taskset -a (all threads; was ${previous})`,
    restore() {
      if (restored) return;
      restored = true;
      try {
        taskset(['-a', '-c', '-p', previous, String(process.pid)]);
      } catch {
        // Best effort: the process keeps running on one CPU, which only slows later suites.
      }
    },
  };
}
