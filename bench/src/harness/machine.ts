/** What the numbers were measured on, printed with every run and embedded in `--json`. */
import { arch, availableParallelism, cpus, freemem, loadavg, platform, release, totalmem } from 'node:os';
import { currentCpuList } from './cpu-pinning.js';

export interface MachineInfo {
  cpuModel: string;
  /** Logical CPUs the OS reports. */
  cores: number;
  /** CPUs this process may run on (`taskset`'s list), when known. */
  cpuList?: string;
  node: string;
  v8: string;
  platform: string;
  arch: string;
  osRelease: string;
  totalMemMiB: number;
  freeMemMiB: number;
  /** 1-minute load average when the run started: a busy machine gives noisy tails. */
  loadAvg1m: number;
  /** Median cost of one empty measured call (see measure.ts), ns. */
  timerOverheadNs: number;
  /** When the run started, ISO. */
  startedAt: string;
}

export function machineInfo(timerOverheadNs: number, startedAt = new Date()): MachineInfo {
  const list = cpus();
  const cpuList = currentCpuList();
  const info: MachineInfo = {
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    node: process.version,
    v8: process.versions.v8,
    platform: platform(),
    arch: arch(),
    osRelease: release(),
    totalMemMiB: Math.round(totalmem() / 2 ** 20),
    freeMemMiB: Math.round(freemem() / 2 ** 20),
    loadAvg1m: loadavg()[0] ?? 0,
    timerOverheadNs,
    startedAt: startedAt.toISOString(),
  };
  if (cpuList !== undefined) info.cpuList = cpuList;
  return info;
}
