/**
 * Child processes a foreground command supervises in their own process group. Ctrl-C in a terminal sends
 * SIGINT to the whole foreground process group (POSIX.1-2017 §11.1.9): without their own group the cloud and
 * the edge would die of it beside the demo, before the demo could ship the edge's audit records and export
 * the kit. The supervisor then owns their end: this module kills them when the supervisor's process exits
 * by any path Node reports ('exit' also follows an uncaught exception), so none outlives it holding a port.
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process';

/** `spawn` options: `detached` makes the child the leader of a new process group. */
export function processGroupOptions(ownGroup: boolean | undefined): Pick<SpawnOptions, 'detached'> {
  return ownGroup ? { detached: true } : {};
}

/** Kills `child` (SIGKILL) if this process exits while it still runs. */
export function killOnExit(child: ChildProcess): void {
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
}
