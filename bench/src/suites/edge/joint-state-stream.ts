/**
 * Joint states at a controller's rate (500 Hz from a UR driver, 1 kHz from a Franka), published by their own
 * MQTT client on a worker thread, as a controller process would: the edge's event loop carries only the
 * broker's and the edge's share of the stream. Frames that fell due while the worker waited for the CPU are
 * sent together on its next turn (a controller's TCP link delivers a backlog the same way), so the rate is
 * kept on average; `sentHz` says what it was.
 */
import { once } from 'node:events';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { TelemetryFrame } from '@pentagate/protocol';
import { connect } from './mqtt-bench-clients.js';

interface StreamInput {
  brokerUrl: string;
  username: string;
  password: string;
  topic: string;
  /** The frame sent with `seq` 1, 2, … and `stampMs` = the wall clock at sending. */
  template: TelemetryFrame;
  rateHz: number;
}

interface StreamReport {
  sent: number;
  elapsedMs: number;
}

export interface JointStateStream {
  /** Stops the stream; how many frames it sent and at what mean rate. */
  stop(): Promise<{ sent: number; sentHz: number }>;
}

export async function startJointStateStream(input: StreamInput): Promise<JointStateStream> {
  if (!(input.rateHz > 0 && input.rateHz <= 10_000))
    throw new Error(`joint state stream: rateHz must be in (0, 10000], got ${input.rateHz}`);
  const worker = new Worker(new URL(import.meta.url), { workerData: input });
  const [ready] = (await once(worker, 'message')) as [string];
  if (ready !== 'streaming') throw new Error(`joint state stream: unexpected ${JSON.stringify(ready)}`);
  return {
    async stop() {
      worker.postMessage('stop');
      const [report] = (await once(worker, 'message')) as [StreamReport];
      await worker.terminate();
      return { sent: report.sent, sentHz: (report.sent * 1000) / report.elapsedMs };
    },
  };
}

async function stream(input: StreamInput, port: NonNullable<typeof parentPort>): Promise<void> {
  const client = await connect(input.brokerUrl, input.username, input.password);
  const periodMs = 1000 / input.rateHz;
  const startedMs = performance.now();
  let sent = 0;
  let running = true;
  port.on('message', (m) => {
    if (m === 'stop') running = false;
  });
  const tick = () => {
    if (!running) {
      const elapsedMs = performance.now() - startedMs;
      void client.endAsync(true).then(() => port.postMessage({ sent, elapsedMs } satisfies StreamReport));
      return;
    }
    const due = Math.floor((performance.now() - startedMs) / periodMs) + 1;
    const stampMs = Date.now();
    while (sent < due) {
      sent++;
      client.publish(input.topic, JSON.stringify({ ...input.template, seq: sent, stampMs }), { qos: 0 });
    }
    setTimeout(tick, Math.max(0, sent * periodMs - (performance.now() - startedMs)));
  };
  port.postMessage('streaming');
  tick();
}

if (!isMainThread && parentPort && (workerData as StreamInput | undefined)?.template) {
  void stream(workerData as StreamInput, parentPort);
}
