/**
 * Speed (b): end to end over the embedded broker. A proximity frame with a human inside the
 * radius is published while a signed motion runs; the clock stops when the controller's client receives
 * the signed STOP. Beside it, a bare MQTT publish → receive between the same two kinds of client through
 * the same broker: the part of the figure the edge cannot remove.
 *
 * The edge runs exactly as `pentagate edge run --mqtt embedded:PORT` wires it (edge-bench-rig.ts). Source maxAgeMs are raised to 60 s because the benchmark sends
 * telemetry once per iteration instead of streaming it at the profile's 50 ms rate, and command validForMs
 * to 60 s so that on a loaded machine a motion command is not withheld as expired (the edge publishes no
 * command after its validUntil) before the STOP it is timed against.
 */
import { join } from 'node:path';
import { FileSequenceStore, MemorySequenceStore, type SequenceStore } from '@pentagate/edge';
import type { MotorCommand } from '@pentagate/protocol';
import {
  inMilliseconds,
  LatencyRecorder,
  nowNs,
  type SectionResult,
  type SuiteContext,
  target,
} from '../../harness/index.js';
import { RIG_ACCOUNTS, startEdgeBenchRig } from './edge-bench-rig.js';
import { connect, nextMessage } from './mqtt-bench-clients.js';
import { ur5eCell } from './ur5e-cell.js';

interface StopRun {
  stop: LatencyRecorder;
  roundTrip: LatencyRecorder | undefined;
  brokerUrl: string;
}

/**
 * Starts broker + edge (with `sequence`), then times proximity → STOP; with `alsoRoundTrip`, also the bare
 * publish → receive through the same broker and clients.
 */
async function runStopScenario(
  ctx: SuiteContext,
  name: string,
  sequence: (stateDir: string) => SequenceStore,
  alsoRoundTrip: boolean,
): Promise<StopRun> {
  const cell = ur5eCell({ maxAgeMs: 60_000, validForMs: 60_000 });
  const rig = await startEdgeBenchRig(cell, sequence);
  const { planner, controller, topics } = rig;
  const rttReader = await connect(rig.brokerUrl, 'rtt', RIG_ACCOUNTS.rtt);
  try {
    await rttReader.subscribeAsync(topics.telemetry('bench-rtt'), { qos: 1 });
    const warmup = ctx.size(100, 5);
    const samples = ctx.size(1000, 20);

    const e2e = new LatencyRecorder(name);
    let seq = 1;
    for (let i = 0; i < warmup + samples; i++) {
      if (i === warmup) e2e.restart();
      const nowMs = Date.now();
      for (const frame of cell.frames(seq++, nowMs)) {
        planner.publish(topics.telemetry(frame.source), JSON.stringify(frame), { qos: 0 });
      }
      const intentId = `bench-${i}`;
      const moving = nextMessage(controller, topics.cmd, (text) => text.includes(`"intentId":"${intentId}"`));
      planner.publish(topics.intent, JSON.stringify(cell.trajectory(intentId)), { qos: 0 });
      const command = JSON.parse(await moving) as MotorCommand;
      if (command.setpoints.kind === 'stop')
        throw new Error('edge bench: the motion was stopped before the probe');
      const stopped = nextMessage(controller, topics.cmd, (text) => text.includes('"kind":"stop"'));
      const human = cell.frames(seq++, Date.now(), 0.5)[1];
      const start = nowNs();
      planner.publish(topics.telemetry('proximity-front'), JSON.stringify(human), { qos: 0 });
      await stopped;
      e2e.recordSince(start);
    }
    if (!alsoRoundTrip) return { stop: e2e, roundTrip: undefined, brokerUrl: rig.brokerUrl };

    // Bare publish → receive through the same broker and publishing client, same QoS 0 telemetry publish.
    const rtt = new LatencyRecorder('mqttRoundTrip');
    const probe = JSON.stringify(cell.frames(0, Date.now(), 0.5)[1]);
    for (let i = 0; i < warmup + samples; i++) {
      if (i === warmup) rtt.restart();
      const received = nextMessage(rttReader, topics.telemetry('bench-rtt'), () => true);
      const start = nowNs();
      planner.publish(topics.telemetry('bench-rtt'), probe, { qos: 0 });
      await received;
      rtt.recordSince(start);
    }
    return { stop: e2e, roundTrip: rtt, brokerUrl: rig.brokerUrl };
  } finally {
    await rttReader.endAsync(true);
    await rig.close();
  }
}

export async function benchEndToEndStop(ctx: SuiteContext): Promise<SectionResult> {
  // As `pentagate edge run` runs it: seq and epoch in a FileSequenceStore (epochs reserved in durable blocks;
  // a bump inside a block overwrites the record in place without fsync).
  const production = await runStopScenario(
    ctx,
    'e2eStop',
    (dir) => FileSequenceStore.open(join(dir, 'sequence.json')),
    true,
  );
  // The same with the epoch in memory: what the STOP path costs without the disk.
  const memory = await runStopScenario(ctx, 'e2eStopMemorySequence', () => new MemorySequenceStore(), false);
  const stop = inMilliseconds(production.stop.stats());
  const stopMemory = inMilliseconds(memory.stop.stats());
  const round = inMilliseconds((production.roundTrip as LatencyRecorder).stats());
  return {
    rows: [production.stop.stats(), memory.stop.stats(), (production.roundTrip as LatencyRecorder).stats()],
    figures: {
      'e2eStop.p50Ms': stop.p50Ms,
      'e2eStop.p99Ms': stop.p99Ms,
      'e2eStop.p999Ms': stop.p999Ms,
      'e2eStopMemorySequence.p50Ms': stopMemory.p50Ms,
      'e2eStopMemorySequence.p99Ms': stopMemory.p99Ms,
      'mqttRoundTrip.p50Ms': round.p50Ms,
      'mqttRoundTrip.p99Ms': round.p99Ms,
      'e2eStop.p99OverMqttRoundTripP99': stop.p99Ms / round.p99Ms,
    },
    targets: [target('e2e STOP p99', stop.p99Ms, '<=', 2, 'ms')],
    notes: [
      'e2eStop: proximity frame published (QoS 0) → edge (readJson, telemetry store, RISK + INVARIANT re-check, ' +
        `epoch bump, HMAC-signed STOP) → STOP received (QoS 1) via aedes on ${production.brokerUrl}; ` +
        'e2eStop uses the FileSequenceStore of `edge run` (epochs reserved in fsynced blocks, a bump inside a block ' +
        'is an in-place write without fsync), e2eStopMemorySequence an in-memory ' +
        'store; mqttRoundTrip: QoS 0 publish → receive',
    ],
  };
}
