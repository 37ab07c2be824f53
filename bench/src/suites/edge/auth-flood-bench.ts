/**
 * Intent → verdict over the embedded broker, quiet and under a flood of 64 connections sending wrong
 * passwords (each one an scrypt derivation, on the libuv thread pool the audit outbox's fsync also needs).
 * Measured twice: with the broker's password-check limits as shipped, and with them lifted (every attempt
 * derived at once, no back-off), which is how the broker behaved before it had them.
 *
 * The clock runs from the intent's publish to the `signed` verdict's arrival; the verdict is published
 * after the outbox fsync. Each sample then stops the motion (a human frame → STOP verdict) so the next
 * intent starts from rest. Commands the transport refused because their validUntil had passed are counted.
 * The flood is a separate process on the CPUs the benchmark is not pinned to, as an outside attacker is. The flood talks only to 127.0.0.1 and stops when the measurement ends.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createEdgeLogger,
  type EmbeddedBrokerOptions,
  hashPassword,
  startEdgeNode,
  startEmbeddedBroker,
} from '@pentagate/edge/commands';
import { FileSequenceStore } from '@pentagate/edge';
import { robotTopics } from '@pentagate/protocol';
import {
  inMilliseconds,
  LatencyRecorder,
  nowNs,
  type SectionResult,
  type SuiteContext,
  target,
} from '../../harness/index.js';
import { connect, nextMessage } from './mqtt-bench-clients.js';
import { startPasswordFlood } from './password-flood.js';
import { ur5eCell } from './ur5e-cell.js';

const FLOOD_CONNECTIONS = 64;

interface FloodRun {
  quiet: LatencyRecorder;
  flood: LatencyRecorder;
  attempts: number;
  byCode: Record<string, number>;
  derivations: number;
  /** Signed commands (motion and STOP) not published because their validUntil had passed. */
  expiredCommands: number;
  /** Why the flood measurement ended early, if it did (a verdict that never came). */
  failure: string | undefined;
}

async function expiredCommands(registryText: Promise<string>): Promise<number> {
  let total = 0;
  for (const m of (await registryText).matchAll(/^pentagate_edge_commands_expired_total\{[^}]*\} (\d+)/gm)) {
    total += Number(m[1]);
  }
  return total;
}

async function runFloodScenario(
  ctx: SuiteContext,
  label: string,
  passwordChecks: EmbeddedBrokerOptions['passwordChecks'],
): Promise<FloodRun> {
  const cell = ur5eCell({ maxAgeMs: 60_000 });
  const robotId = cell.profile.robotId;
  const topics = robotTopics(robotId);
  const stateDir = await mkdtemp(join(tmpdir(), 'pentagate-bench-flood-'));
  const broker = await startEmbeddedBroker({
    port: 0,
    users: [
      { username: 'edge', password: 'bench-edge', role: 'edge', robotId },
      // A stored hash at the default cost, as a deployment has: the flood guesses this account's password.
      { username: 'robot', passwordHash: await hashPassword('bench-robot'), role: 'robot', robotId },
    ],
    ...(passwordChecks ? { passwordChecks } : {}),
  });
  const edge = await startEdgeNode({
    robotId,
    gate: cell.makeGate(Date.now, FileSequenceStore.open(join(stateDir, 'sequence.json'))),
    mqtt: { url: broker.url, username: 'edge', password: 'bench-edge' },
    stateDir,
    logger: createEdgeLogger({ level: 'silent' }),
    // a closed loop of intents as fast as the edge answers: the node's intent rate limit would refuse most
    maxIntentsPerSecond: 10_000,
  });
  const planner = await connect(broker.url, 'robot', 'bench-robot');
  let seq = 1;
  let n = 0;
  const measure = async (recorder: LatencyRecorder, warmup: number, samples: number) => {
    for (let i = 0; i < warmup + samples; i++) {
      if (i === warmup) recorder.restart();
      for (const frame of cell.frames(seq++, Date.now())) {
        planner.publish(topics.telemetry(frame.source), JSON.stringify(frame), { qos: 0 });
      }
      const intentId = `${label}-${n++}`;
      const verdict = nextMessage(
        planner,
        topics.verdict,
        (t) => t.includes(`"intentId":"${intentId}"`),
        30_000,
      );
      const start = nowNs();
      planner.publish(topics.intent, JSON.stringify(cell.trajectory(intentId)), { qos: 0 });
      const text = await verdict;
      recorder.recordSince(start);
      if (!text.includes('"outcome":"signed"'))
        throw new Error(`flood bench: ${intentId} not signed: ${text}`);
      // The STOP's verdict, not the STOP itself: a STOP that outlived its validUntil is never published.
      const stopped = nextMessage(planner, topics.verdict, (t) => t.includes('"outcome":"stopped"'), 10_000);
      planner.publish(
        topics.telemetry('proximity-front'),
        JSON.stringify(cell.frames(seq++, Date.now(), 0.5)[1]),
        {
          qos: 0,
        },
      );
      await stopped;
    }
  };
  try {
    await planner.subscribeAsync(topics.verdict, { qos: 1 });
    const warmup = ctx.size(30, 5);
    const samples = ctx.size(300, 30);
    const quiet = new LatencyRecorder(`${label}Quiet`);
    await measure(quiet, warmup, samples);
    ctx.log(`  ${label}: ${FLOOD_CONNECTIONS} connections sending wrong passwords…`);
    const before = broker.passwordStats().checks;
    const flood = startPasswordFlood(broker.port, FLOOD_CONNECTIONS, 'robot');
    const floodRecorder = new LatencyRecorder(`${label}Flood`);
    let report: Awaited<ReturnType<typeof flood.stop>>;
    let failure: string | undefined;
    try {
      await new Promise((r) => setTimeout(r, 1000));
      await measure(floodRecorder, warmup, samples);
    } catch (err) {
      failure = `after ${floodRecorder.count} samples: ${(err as Error).message}`;
    } finally {
      report = await flood.stop();
    }
    return {
      quiet,
      flood: floodRecorder,
      attempts: report.attempts,
      byCode: report.byCode,
      derivations: broker.passwordStats().checks - before,
      expiredCommands: await expiredCommands(edge.metrics.registry.metrics()),
      failure,
    };
  } finally {
    await planner.endAsync(true);
    await edge.stop('benchmark over');
    await broker.close();
    await rm(stateDir, { recursive: true, force: true });
  }
}

export async function benchAuthFlood(ctx: SuiteContext): Promise<SectionResult> {
  const shipped = await runFloodScenario(ctx, 'intentToVerdict', undefined);
  const lifted = await runFloodScenario(ctx, 'intentToVerdictNoAuthLimits', {
    maxConcurrentChecks: FLOOD_CONNECTIONS,
    maxQueuedChecks: 1_000_000,
    freeFailures: 1_000_000,
  });
  const q = inMilliseconds(shipped.quiet.stats());
  const f = inMilliseconds(shipped.flood.stats());
  const lq = inMilliseconds(lifted.quiet.stats());
  const lf = inMilliseconds(lifted.flood.stats());
  const codes = (r: FloodRun) =>
    Object.entries(r.byCode)
      .map(([code, count]) => `${count}× ${code === '-1' ? 'closed' : `CONNACK ${code}`}`)
      .join(', ');
  return {
    rows: [shipped.quiet.stats(), shipped.flood.stats(), lifted.quiet.stats(), lifted.flood.stats()],
    figures: {
      'intentToVerdictQuiet.p50Ms': q.p50Ms,
      'intentToVerdictQuiet.p99Ms': q.p99Ms,
      'intentToVerdictFlood.p50Ms': f.p50Ms,
      'intentToVerdictFlood.p99Ms': f.p99Ms,
      'intentToVerdictFlood.p99OverQuietP99': f.p99Ms / q.p99Ms,
      'intentToVerdictFlood.loginAttempts': shipped.attempts,
      'intentToVerdictFlood.scryptDerivations': shipped.derivations,
      'intentToVerdictFlood.expiredCommands': shipped.expiredCommands,
      'intentToVerdictNoAuthLimitsQuiet.p99Ms': lq.p99Ms,
      'intentToVerdictNoAuthLimitsFlood.p99Ms': lf.p99Ms,
      'intentToVerdictNoAuthLimitsFlood.p99OverQuietP99': lf.p99Ms / lq.p99Ms,
      'intentToVerdictNoAuthLimitsFlood.loginAttempts': lifted.attempts,
      'intentToVerdictNoAuthLimitsFlood.scryptDerivations': lifted.derivations,
      'intentToVerdictNoAuthLimitsFlood.expiredCommands': lifted.expiredCommands,
      'intentToVerdictNoAuthLimitsFlood.samplesBeforeTimeout': lifted.failure ? lifted.flood.count : -1,
    },
    targets: [
      target(
        'intent → verdict p99 under a password flood / quiet p99',
        shipped.failure ? Number.POSITIVE_INFINITY : f.p99Ms / q.p99Ms,
        '<=',
        2,
      ),
    ],
    notes: [
      `intentToVerdict*: intent published (QoS 0) → signed verdict received (QoS 1, after the outbox fsync), embedded broker; ` +
        `flood = ${FLOOD_CONNECTIONS} sockets on 127.0.0.1 each sending a CONNECT with a wrong password for an existing ` +
        'account and starting over on the CONNACK (a child process on the other CPU). Shipped limits: one scrypt at a time, 16 queued, ' +
        `back-off per address after 3 failures — ${shipped.attempts} attempts (${codes(shipped)}), ${shipped.derivations} derivations, ${shipped.expiredCommands} commands expired before publishing. ` +
        `NoAuthLimits: every attempt derived at once, no back-off — ${lifted.attempts} attempts (${codes(lifted)}), ` +
        `${lifted.derivations} derivations, ${lifted.expiredCommands} commands expired before publishing` +
        (lifted.failure ? `; the measurement under the flood ended ${lifted.failure}.` : '.'),
      ...(shipped.failure ? [`intentToVerdictFlood ended ${shipped.failure}`] : []),
    ],
  };
}
