/**
 * Speed (d): proximity frame → signed STOP end to end (as e2e-stop-bench.ts) while a signed motion runs and
 * joint states stream at a controller's rate (joint-state-stream.ts): each joint state makes the edge re-check
 * the motion (EdgeGate.monitor), so a long plan's keep-out sweep competes with the proximity frame that must
 * stop it. Rows: a long plan (12 base swings, a 4,693-sample sweep; MAX_PATH_SAMPLES is 5,000) at 1 kHz and at
 * 500 Hz, and the 20-point plan at 1 kHz. The specification allows 20 ms for a veto from sensor data.
 *
 * Per scenario: one motion is signed and runs for a window in which the edge thread's event-loop utilisation
 * and lag are measured (the stream and the motion, no probe); then, per sample, a fresh motion is signed, runs
 * DWELL_MS, and a human is reported 0.5 m away. Source maxAgeMs and validForMs are raised to 60 s as in (b).
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { MemorySequenceStore } from '@pentagate/edge';
import type { Intent, MotorCommand } from '@pentagate/protocol';
import {
  inMilliseconds,
  LatencyRecorder,
  nowNs,
  type SectionResult,
  type SuiteContext,
  type TableRow,
  target,
} from '../../harness/index.js';
import { type EdgeBenchRig, RIG_ACCOUNTS, startEdgeBenchRig } from './edge-bench-rig.js';
import { startJointStateStream } from './joint-state-stream.js';
import { nextMessage } from './mqtt-bench-clients.js';
import { type Ur5eCell, ur5eCell } from './ur5e-cell.js';

/** The specification's bound for a veto from sensor data, ms. */
const SENSOR_VETO_BOUND_MS = 20;
const LONG_PLAN_SWINGS = 12;
/** How long each probed motion runs before the human appears, ms: spread over 20–59 ms (a few sweep periods). */
const dwellMs = (i: number) => 20 + ((i * 13) % 40);

interface Scenario {
  name: string;
  plan: 'long' | 'short';
  rateHz: number;
}

interface ScenarioResult {
  stop: LatencyRecorder;
  load: TableRow;
}

/** Publishes the intent and waits for its signed motion command. */
async function signMotion(rig: EdgeBenchRig, intent: Intent): Promise<void> {
  const moving = nextMessage(rig.controller, rig.topics.cmd, (t) =>
    t.includes(`"intentId":"${intent.intentId}"`),
  );
  rig.planner.publish(rig.topics.intent, JSON.stringify(intent), { qos: 0 });
  const command = JSON.parse(await moving) as MotorCommand;
  if (command.setpoints.kind === 'stop')
    throw new Error('edge bench: the motion was stopped before the probe');
}

/** Every source but the joint states (the stream owns them), with the nearest human `humanM` away. */
function publishOtherSources(rig: EdgeBenchRig, cell: Ur5eCell, seq: number, humanM: number): void {
  for (const frame of cell.frames(seq, Date.now(), humanM)) {
    if (frame.kind === 'joint-state') continue;
    rig.planner.publish(rig.topics.telemetry(frame.source), JSON.stringify(frame), { qos: 0 });
  }
}

async function runScenario(ctx: SuiteContext, scenario: Scenario): Promise<ScenarioResult> {
  const cell = ur5eCell({ maxAgeMs: 60_000, validForMs: 60_000 });
  const rig = await startEdgeBenchRig(cell, () => new MemorySequenceStore());
  const stream = await startJointStateStream({
    brokerUrl: rig.brokerUrl,
    username: 'robot',
    password: RIG_ACCOUNTS.robot,
    topic: rig.topics.telemetry('joint_states'),
    template: cell.frames(0, 0)[0]!,
    rateHz: scenario.rateHz,
  });
  const plan = (id: string) =>
    scenario.plan === 'long' ? cell.swingTrajectory(id, LONG_PLAN_SWINGS) : cell.trajectory(id);
  let streamed = { sent: 0, sentHz: 0 };
  try {
    let seq = 1;
    publishOtherSources(rig, cell, seq++, 4);
    await sleep(50); // the first joint states are in

    // The load of the stream on the edge's thread while a motion runs, before any probe.
    await signMotion(rig, plan(`${scenario.name}-load`));
    const lag = monitorEventLoopDelay({ resolution: 1 });
    const busyBefore = performance.eventLoopUtilization();
    lag.enable();
    await sleep(ctx.quick ? 200 : 1000);
    lag.disable();
    const utilisation = performance.eventLoopUtilization(busyBefore).utilization;

    const warmup = ctx.size(3, 1);
    const samples = ctx.size(30, 3);
    const stop = new LatencyRecorder(scenario.name);
    for (let i = 0; i < warmup + samples; i++) {
      if (i === warmup) stop.restart();
      publishOtherSources(rig, cell, seq++, 4);
      await signMotion(rig, plan(`${scenario.name}-${i}`));
      await sleep(dwellMs(i));
      const stopped = nextMessage(rig.controller, rig.topics.cmd, (t) => t.includes('"kind":"stop"'));
      const human = cell.frames(seq++, Date.now(), 0.5).find((f) => f.source === 'proximity-front');
      const start = nowNs();
      rig.planner.publish(rig.topics.telemetry('proximity-front'), JSON.stringify(human), { qos: 0 });
      await stopped;
      stop.recordSince(start);
    }
    streamed = await stream.stop();
    return {
      stop,
      load: {
        name: `${scenario.name}.load`,
        jointStatesHz: Math.round(streamed.sentHz),
        eventLoopUtilisation: Number(utilisation.toFixed(3)),
        lagP99Ms: Number((lag.percentile(99) / 1e6).toFixed(2)),
        lagMaxMs: Number((lag.max / 1e6).toFixed(2)),
      },
    };
  } finally {
    if (streamed.sent === 0) await stream.stop();
    await rig.close();
  }
}

const SCENARIOS: Scenario[] = [
  { name: 'stopLongPlan1kHz', plan: 'long', rateHz: 1000 },
  { name: 'stopLongPlan500Hz', plan: 'long', rateHz: 500 },
  { name: 'stopShortPlan1kHz', plan: 'short', rateHz: 1000 },
];

export async function benchStopUnderJointStream(ctx: SuiteContext): Promise<SectionResult> {
  const results: ScenarioResult[] = [];
  for (const scenario of SCENARIOS) results.push(await runScenario(ctx, scenario));
  const figures: Record<string, number> = {};
  results.forEach(({ stop, load }) => {
    const ms = inMilliseconds(stop.stats());
    figures[`${stop.name}.p50Ms`] = ms.p50Ms;
    figures[`${stop.name}.p99Ms`] = ms.p99Ms;
    figures[`${stop.name}.maxMs`] = ms.maxMs;
    figures[`${stop.name}.eventLoopUtilisation`] = load.eventLoopUtilisation as number;
    figures[`${stop.name}.lagP99Ms`] = load.lagP99Ms as number;
  });
  return {
    rows: [...results.map((r) => r.stop.stats()), ...results.map((r) => r.load)],
    figures,
    targets: [
      target(
        'STOP p99, long plan, 1 kHz joint states',
        figures['stopLongPlan1kHz.p99Ms'] as number,
        '<=',
        SENSOR_VETO_BOUND_MS,
        'ms',
      ),
    ],
    notes: [
      `stop*: proximity frame → signed STOP over the embedded broker while a signed motion runs and joint states ` +
        `stream from a worker thread at the named rate; long plan: ${LONG_PLAN_SWINGS} base swings of ±3 rad ` +
        '(138 points, 46 s, 4,693 keep-out samples), short: 20 points; each probed motion runs 20–59 ms first. ' +
        '*.load: the edge thread (edge, broker, probe clients) over 1 s of stream with the motion running: ' +
        'event-loop utilisation and lag (monitorEventLoopDelay, 1 ms resolution)',
    ],
  };
}
