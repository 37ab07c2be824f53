/**
 * Where the edge's decisions go as they are made: an MCAP recording (VerdictRecorder, `--record`), the Foxglove
 * live server (FoxgloveLive, `--foxglove-port`), or both at once (`teeSinks`). McapRecordingTransport feeds a sink
 * from the transport the node uses.
 */
import type { MotorCommand, TelemetryFrame, VerdictEvent } from '@pentagate/protocol';

export interface DecisionSink {
  /** A verdict and the latest frame per source when it was made, at `atMs` (Unix ms). */
  verdict(verdict: VerdictEvent, frames: readonly TelemetryFrame[], atMs: number): Promise<void>;
  command(command: MotorCommand, atMs: number): Promise<void>;
  input(topic: string, message: unknown, atMs: number): Promise<void>;
  close(): Promise<void>;
}

/** One sink feeding several; closing closes all and rethrows the first failure. */
export function teeSinks(sinks: readonly DecisionSink[]): DecisionSink {
  const all = async (work: (s: DecisionSink) => Promise<void>) => {
    const results = await Promise.allSettled(sinks.map(work));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
  return {
    verdict: (v, frames, atMs) => all((s) => s.verdict(v, frames, atMs)),
    command: (c, atMs) => all((s) => s.command(c, atMs)),
    input: (topic, message, atMs) => all((s) => s.input(topic, message, atMs)),
    close: () => all((s) => s.close()),
  };
}
