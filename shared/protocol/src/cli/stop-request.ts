/**
 * How a long-running command (`cloud serve`, `edge run`, `demo`) learns that it should stop: a signal, or
 * the reader of its output going away. The second is what `pentagate demo | tee demo.log` meets on Ctrl-C:
 * the terminal's SIGINT reaches `tee` too, and every line the command writes while it shuts down then fails
 * with EPIPE. Such a command must still finish its stop as it would on SIGTERM (the edge's final STOP, the
 * audit outbox shipped, the store closed, temporary keys removed), not die at its first line of output.
 * The root bin routes a closed stdout or stderr here (`stopForClosedOutput`); a command without a stop of
 * its own just ends.
 */

/** Called once per stop request with what asked for it: a signal name, or `CLOSED_OUTPUT`. */
export type StopListener = (reason: string) => void;

/** The reason given when stdout or stderr has no reader left. */
export const CLOSED_OUTPUT = 'output closed';

const listeners = new Set<StopListener>();
let stopping = false;

/**
 * Calls `listener` on each of `signals` and on a closed output, until the returned function is called.
 * A command that stops on the first request removes the listener there; one that must not be killed
 * half-way through its clean-up by a second Ctrl-C keeps it until the clean-up is over.
 */
export function onStopRequest(
  listener: StopListener,
  signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'],
): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    stopping = true;
    listener(signal);
  };
  for (const s of signals) process.on(s, onSignal);
  listeners.add(listener);
  return () => {
    for (const s of signals) process.off(s, onSignal);
    listeners.delete(listener);
  };
}

/** Resolves with the first stop request (`received SIGINT`, `output closed`). */
export function untilStopRequest(signals?: readonly NodeJS.Signals[]): Promise<string> {
  return new Promise((resolve) => {
    const off = onStopRequest((reason) => {
      off();
      resolve(reason === CLOSED_OUTPUT ? reason : `received ${reason}`);
    }, signals);
  });
}

/**
 * stdout or stderr has no reader left. Returns true when a command is stopping, or now stops, by itself:
 * the process must live on until that stop is over. Returns false when nothing is listening: the caller
 * ends the process (a short command piped into `head` has nothing left to say).
 */
export function stopForClosedOutput(): boolean {
  if (stopping) return true;
  if (listeners.size === 0) return false;
  stopping = true;
  for (const listener of [...listeners]) listener(CLOSED_OUTPUT);
  return true;
}
