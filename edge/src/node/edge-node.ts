/**
 * The running edge: messages from a transport go through the EdgeGate, results go back
 * out as signed commands and verdict events, every verdict lands in the audit outbox, and consents that
 * wait too long expire into vetoes.
 *
 * Ordering rules, each for a reason:
 * - A protective STOP is published inside the handler of the telemetry message that triggered it, before
 *   anything else is awaited (no timer, no disk), so the stop leaves within the same telemetry update.
 *   Its verdict is recorded after it.
 * - A signed motion command is published only after its verdict is durable in the outbox: an unaudited
 *   motion must not happen (fail closed). If the outbox fails, the node publishes a STOP instead.
 * - Nothing after a STOP: a motion command whose epoch is older than a STOP already published is withheld
 *   with its `signed` verdict (it waited for its outbox sync while the STOP left). A controller would refuse
 *   its stale epoch anyway; withholding it keeps the command and verdict streams from reading "stopped" and
 *   then "signed". The verdict stays in the outbox, in the order it was decided.
 * - Nothing that arrives can throw out of the handler: bad input becomes a `rejected-input` verdict.
 * - A STOP that could not be handed to the transport (link down: commands are not queued), or that the broker
 *   did not acknowledge before its validUntil (a half-open link), is owed: the watchdog publishes a fresh one
 *   as soon as the transport is connected again, and again each time one is not acknowledged.
 * - A motion command that could not be handed to the transport (expired while its verdict was made durable,
 *   link down) is followed by a STOP: the gate watches that command's plan, not an earlier motion the
 *   robot may still run.
 * - A STOP when the node starts on a state directory an earlier process used: a motion that process signed
 *   (and could not stop, having died without its shutdown STOP) must not run on unmonitored.
 * - Refusals of one kind from one source are summarised per window (refusal-summary.ts): a flood of bad
 *   input costs a verdict per window, not an outbox record per message.
 * - Intents from the transports pass a token bucket (intent-rate-limit.ts, default 50 a second, burst 100)
 *   before anything else is done with them: one over the limit is refused unjudged, through the same summary.
 *   Refusing an intent never moves the robot; telemetry, consent, STOPs and the watchdog do not pass it.
 * - An intent that passes is judged in a turn of the event loop of its own (intent-queue.ts): telemetry that
 *   arrived meanwhile, and the STOP it may bring, never waits behind a burst of intents.
 */
import { performance } from 'node:perf_hooks';
import {
  conforms,
  type EdgeStopCode,
  type InputRefusalCode,
  type MotorCommand,
  parseRobotTopic,
  readJson,
  SourceNameSchema,
  type VerdictEvent,
} from '@pentagate/protocol';
import type { Logger } from 'pino';
import type { MotionStop, TrapResult } from '../trap/trap-result.js';
import type { RobotTransport } from '../transport/robot-transport.js';
import type { EdgeMetrics, InputKind } from '../observability/edge-metrics.js';
import type { HealthReport } from '../observability/observability-server.js';
import type { AuditOutbox } from '../outbox/audit-outbox.js';
import type { ConsentScreen } from './consent-screen.js';
import type { EdgeNodeOptions } from './edge-node-options.js';
import type { EdgeGatePort } from './edge-gate-port.js';
import { IntentQueue } from './intent-queue.js';
import { IntentRateLimit } from './intent-rate-limit.js';
import { nodeStopVerdict, rejectedInputVerdict } from './node-verdicts.js';
import { REFUSAL_WINDOW_MS, RefusalSummary } from './refusal-summary.js';
import { EdgeRuntimeError } from './runtime-error.js';
import { sendUnexpired } from './unexpired-send.js';
import { WallClockSteps } from './wall-clock-steps.js';
import { WorkInFlight } from './work-in-flight.js';

export type { EdgeNodeOptions } from './edge-node-options.js';
export { CLOCK_STEP_TOLERANCE_MS } from './wall-clock-steps.js';

/** An intent waiting its turn (intent-queue.ts), with the topic it came on. */
interface QueuedIntent {
  intent: unknown;
  topic: string;
}

/** Largest inbound message; a 20-point 6-joint intent is about 4 KiB, a consent envelope 1 KiB. */
export const MAX_INBOUND_BYTES = 64 * 1024;

export class EdgeNode {
  readonly robotId: string;
  readonly #gate: EdgeGatePort;
  readonly #transport: RobotTransport;
  readonly #outbox: AuditOutbox;
  readonly #metrics: EdgeMetrics;
  readonly #log: Logger;
  readonly #clock: () => number;
  readonly #consentCheckPeriodMs: number;
  readonly #monitorPeriodMs: number;
  #monitorTimer: NodeJS.Timeout | undefined;
  readonly #inFlight = new WorkInFlight();
  #consentTimer: NodeJS.Timeout | undefined;
  #state: 'new' | 'running' | 'stopping' | 'stopped' = 'new';
  #outboxFailure: Error | undefined;
  readonly #refusals: RefusalSummary;
  readonly #intentRate: IntentRateLimit;
  readonly #intents = new IntentQueue<QueuedIntent>((queued) => this.#judgeIntent(queued));
  /** The highest epoch of a STOP this node has published (motion commands below it are withheld). */
  #stopEpoch = -1;
  /**
   * A STOP was not taken (link down, expired on the way, or no PUBACK before its validUntil on a half-open
   * link): one is owed to the robot, and the watchdog signs a fresh one while the transport says it is up.
   */
  #stopOwed = false;
  /** The wall clock against the monotonic one, from monitor tick to monitor tick. */
  readonly #wallClock: WallClockSteps;
  /** What consent tokens wait for before the gate takes them (the consent relay's key re-read), if anything. */
  #consentScreen: ConsentScreen | undefined;

  constructor(options: EdgeNodeOptions) {
    this.robotId = options.robotId;
    this.#gate = options.gate;
    this.#transport = options.transport;
    this.#outbox = options.outbox;
    this.#metrics = options.metrics;
    this.#log = options.logger;
    this.#clock = options.clock ?? Date.now;
    this.#wallClock = new WallClockSteps(this.#clock);
    this.#consentCheckPeriodMs = options.consentCheckPeriodMs ?? 250;
    this.#monitorPeriodMs = options.monitorPeriodMs ?? 20;
    this.#refusals = new RefusalSummary(options.refusalWindowMs ?? REFUSAL_WINDOW_MS);
    this.#intentRate = new IntentRateLimit({
      ...(options.maxIntentsPerSecond !== undefined ? { perSecond: options.maxIntentsPerSecond } : {}),
      ...(options.intentBurst !== undefined ? { burst: options.intentBurst } : {}),
      ...(options.intentRateClock !== undefined ? { clock: options.intentRateClock } : {}),
    });
  }

  start(): void {
    if (this.#state !== 'new')
      throw new EdgeRuntimeError('NODE_STATE', `edge node: expected a new node, got ${this.#state}`);
    this.#state = 'running';
    this.#transport.onMessage((topic, payload) => this.handleMessage(topic, payload));
    this.#consentTimer = setInterval(() => this.#expireConsents(), this.#consentCheckPeriodMs);
    this.#consentTimer.unref();
    this.#wallClock.mark();
    this.#monitorTimer = setInterval(() => this.#monitorMotion(), this.#monitorPeriodMs);
    this.#monitorTimer.unref();
    this.#metrics.setOutboxBacklog(this.#outbox.count - this.#outbox.acknowledged);
    // A previous process may have died (SIGKILL, a crash) without its shutdown STOP while a motion it signed
    // runs on: this process cannot monitor that motion (it does not know its plan), so it stops the robot.
    // An empty outbox means no earlier process decided anything with this state directory. With the link down
    // at this moment (it dropped after the transport connected) the STOP is owed, and the watchdog sends it as
    // soon as the link is up: before, none was ever sent, and the old process's motion ran on unmonitored.
    if (this.#outbox.count > 0) {
      if (this.#transport.isConnected()) {
        this.#orderStop('STARTED', 'edge started: a motion signed before this start is not monitored');
      } else this.#stopOwed = true;
    }
    this.#log.info({ robotId: this.robotId, outboxRecords: this.#outbox.count }, 'edge node running');
  }

  health(): HealthReport {
    const connected = this.#transport.isConnected();
    const outboxOk = this.#outboxFailure === undefined;
    return {
      healthy: this.#state === 'running' && connected && outboxOk,
      checks: {
        node: this.#state,
        transport: connected ? 'connected' : 'disconnected',
        outbox: outboxOk ? 'ok' : `failed: ${this.#outboxFailure?.message}`,
      },
    };
  }

  /**
   * Routes every consent token, from the transports and from the cloud's relay alike, through `screen` before
   * the gate takes it (consent-screen.ts). Set once the uplink runs; until then the gate trusts no key from
   * the cloud, so nothing needs holding.
   */
  screenConsents(screen: ConsentScreen | undefined): void {
    this.#consentScreen = screen;
  }

  /**
   * Handles one inbound message. Synchronous up to the first publish, so a STOP leaves before this
   * returns; the remaining work (outbox, verdicts) is tracked so `stop` can wait for it.
   */
  handleMessage(topic: string, payload: Uint8Array): void {
    if (this.#state !== 'running') return;
    const nowMs = this.#clock();
    const where = parseRobotTopic(topic);
    if (!where || where.robotId !== this.robotId || where.kind === 'cmd' || where.kind === 'verdict') {
      this.#reject(
        'unknown-topic',
        'UNKNOWN_TOPIC',
        `no handler for topic ${JSON.stringify(topic)}`,
        nowMs,
        topic,
      );
      return;
    }
    const kind: InputKind = where.kind;
    // Before the message is even parsed: over the limit, an intent costs neither the gate's work nor its own
    // audit record (the refusal summary counts it). Nothing is signed, so the robot is not moved.
    if (kind === 'intent' && !this.#intentRate.take()) {
      this.#reject(
        'intent',
        'INTENT_RATE_LIMITED',
        `more than ${this.#intentRate.perSecond} intents a second (burst ${this.#intentRate.burst}) on ${topic}: not judged`,
        nowMs,
        topic,
      );
      return;
    }
    let message: unknown;
    try {
      message = readJson(payload, { what: `${kind} on ${topic}`, maxBytes: MAX_INBOUND_BYTES });
    } catch (err) {
      this.#reject(kind, 'MALFORMED', (err as Error).message, nowMs, topic);
      if (kind === 'telemetry')
        this.#stopped(this.#gate.unreadableTelemetry(where.source as string, nowMs), topic);
      return;
    }
    try {
      if (kind === 'telemetry') this.#onTelemetry(message, where.source as string, topic, nowMs);
      else if (kind === 'intent') this.#onIntent(message, topic);
      else this.#onConsent(message, topic, nowMs);
    } catch (err) {
      this.#gateThrew(err, kind, topic, nowMs);
    }
  }

  /** The gate fails closed and should not throw; if it does, nothing was signed, and the node goes on. */
  #gateThrew(err: unknown, kind: InputKind, topic: string, nowMs: number): void {
    this.#log.error({ err, topic }, 'gate threw; input refused');
    this.#reject(kind, 'GATE_FAULT', (err as Error).message, nowMs, topic);
  }

  /** A consent token: to the gate now, or once the screen lets it through (judged at that moment). */
  #onConsent(token: unknown, topic: string, nowMs: number): void {
    const held = this.#consentScreen?.hold(token);
    if (!held) {
      this.#onTrapResult(this.#gate.submitConsent(token, nowMs), 'consent', topic);
      return;
    }
    const admit = () => {
      // a node stopping has dropped its waits: the token would release nothing
      if (this.#state !== 'running') return;
      const atMs = this.#clock();
      try {
        this.#onTrapResult(this.#gate.submitConsent(token, atMs), 'consent', topic);
      } catch (err) {
        this.#gateThrew(err, 'consent', topic, atMs);
      }
    };
    void held.then(admit, admit);
  }

  #onTelemetry(frame: unknown, topicSource: string, topic: string, nowMs: number): void {
    // The broker binds `telemetry/<source>` to the accounts that may publish that source (topic-rules.ts): a
    // frame naming another source than its topic would let any account speak for the proximity sensor. A
    // source that is not even a valid name is left to the gate, which refuses the frame as malformed.
    const source = (frame as { source?: unknown } | null)?.source;
    if (typeof source === 'string' && conforms(SourceNameSchema, source) && source !== topicSource) {
      this.#reject(
        'telemetry',
        'TELEMETRY_WRONG_TOPIC',
        `a frame of source ${source} arrived on ${topic}: a source publishes only on its own topic`,
        nowMs,
        topic,
      );
      this.#stopped(this.#gate.unreadableTelemetry(topicSource, nowMs), topic);
      return;
    }
    const outcome = this.#gate.ingestTelemetry(frame, nowMs, topicSource);
    if (outcome.newlyIgnoredJoints) {
      this.#log.warn(
        { topic, joints: outcome.newlyIgnoredJoints },
        'joint state names joints the profile does not: ignored (the profile joints are still checked)',
      );
    }
    if (outcome.stop) this.#publishStop(outcome.stop);
    if (!outcome.accepted) this.#metrics.recordRejectedInput('telemetry', outcome.reason ?? 'refused');
    if (outcome.verdict) this.#summarised(outcome.verdict, topic);
  }

  /** Publishes the STOP of a motion an unreadable frame stopped, with its verdict. */
  #stopped(stopped: MotionStop | undefined, topic: string): void {
    if (!stopped) return;
    this.#publishStop(stopped.stop);
    this.#summarised(stopped.verdict, topic);
  }

  /** An intent is judged in a turn of its own, after the telemetry that arrived with it (intent-queue.ts). */
  #onIntent(intent: unknown, topic: string): void {
    this.#inFlight.track(this.#intents.push({ intent, topic }));
  }

  #judgeIntent({ intent, topic }: QueuedIntent): void {
    // a node stopping judges nothing more: nothing it signed could be published
    if (this.#state !== 'running') return;
    const nowMs = this.#clock();
    try {
      this.#trapIntent(intent, topic, nowMs);
    } catch (err) {
      this.#gateThrew(err, 'intent', topic, nowMs);
    }
  }

  #trapIntent(intent: unknown, topic: string, nowMs: number): void {
    const started = performance.now();
    const result = this.#gate.trapAndSign(intent, nowMs);
    this.#metrics.observeTrapAndSign((performance.now() - started) / 1000);
    this.#onTrapResult(result, 'intent', topic);
  }

  #onTrapResult(result: TrapResult, input: InputKind, source: string): void {
    if (result.verdict.outcome === 'rejected-input') {
      this.#metrics.recordRejectedInput(input, result.verdict.violations[0] ?? 'rejected');
    }
    if (result.kind === 'signed')
      this.#inFlight.track(this.#auditThenPublish(result.command, result.verdict));
    else this.#summarised(result.verdict, source);
  }

  /** Records and publishes a verdict, refusals through the per-source summary. */
  #summarised(verdict: VerdictEvent, source: string): void {
    for (const v of this.#refusals.admit(verdict, source)) this.#inFlight.track(this.#recordAndPublish(v));
  }

  #flushRefusals(all = false): void {
    for (const v of this.#refusals.flush(this.#clock(), all)) this.#inFlight.track(this.#recordAndPublish(v));
  }

  #publishStop(stop: MotorCommand): void {
    this.#stopEpoch = Math.max(this.#stopEpoch, stop.epoch);
    this.#metrics.recordCommandPublished('stop');
    this.#inFlight.track(
      this.#send(stop).catch((err: Error) => {
        // The gate has already forgotten the motion this STOP ends: the watchdog sends a fresh one once it can.
        this.#stopOwed = true;
        this.#log.error({ err, seq: stop.seq }, 'STOP could not be handed to the transport');
      }),
    );
  }

  async #auditThenPublish(command: MotorCommand, verdict: VerdictEvent): Promise<void> {
    try {
      await this.#append(verdict);
    } catch {
      // No durable audit record: the command is not sent, and the robot is stopped (fail closed).
      this.#orderStop(
        'OUTBOX_FAILED',
        `command seq ${command.seq} withheld: the audit outbox cannot record it`,
      );
      return;
    }
    if (command.epoch < this.#stopEpoch) {
      this.#log.warn(
        { seq: command.seq, intentId: command.intentId, epoch: command.epoch, stopEpoch: this.#stopEpoch },
        'motion command withheld: a STOP with a newer epoch is already out',
      );
      return;
    }
    this.#metrics.recordCommandPublished('motion');
    const verdictOut = this.#publishVerdict(verdict);
    try {
      await this.#send(command);
    } catch (err) {
      // The gate now monitors this command's plan, so a motion signed before it that the robot may still be
      // running (the controller never got this one) is watched by nobody: stop the robot (fail closed).
      this.#log.error({ err, seq: command.seq }, 'command could not be published; stopping the robot');
      this.#orderStop(
        'COMMAND_UNSENT',
        `command seq ${command.seq} (${command.intentId}) could not be published: ${(err as Error).message}`,
      );
    }
    await verdictOut;
  }

  /** Hands a command to the transport, never after its validUntil (unexpired-send.ts). */
  #send(command: MotorCommand): Promise<void> {
    return sendUnexpired(command, this.#clock(), this.#transport, this.#metrics);
  }

  /**
   * Appends a verdict to the outbox and publishes it, the append first: a verdict published before it was
   * written waited behind its publish, and with the link down or half-open the record of a STOP was not in the
   * outbox until the link came back (or ever, had the edge died meanwhile). Appending in call order also
   * keeps the outbox in the order verdicts were decided.
   */
  async #recordAndPublish(verdict: VerdictEvent): Promise<void> {
    const recorded = this.#append(verdict).catch(() => {});
    await this.#publishVerdict(verdict);
    await recorded;
  }

  /** A verdict is news for watchers; one the link could not carry is still in the outbox. */
  #publishVerdict(verdict: VerdictEvent): Promise<void> {
    return this.#transport.publishVerdict(verdict).catch((err: Error) => {
      this.#log.warn({ err, outcome: verdict.outcome }, 'verdict could not be published');
    });
  }

  async #append(verdict: VerdictEvent): Promise<void> {
    this.#metrics.recordVerdict(verdict);
    this.#log.info(
      {
        outcome: verdict.outcome,
        intentId: verdict.intentId,
        seq: verdict.commandSeq,
        violations: verdict.violations,
      },
      'verdict',
    );
    try {
      await this.#outbox.append(verdict);
      this.#metrics.setOutboxBacklog(this.#outbox.count - this.#outbox.acknowledged);
    } catch (err) {
      if (!this.#outboxFailure) this.#log.fatal({ err }, 'audit outbox failed; motion commands are refused');
      this.#outboxFailure ??= err as Error;
      throw err;
    }
  }

  #reject(kind: InputKind, code: InputRefusalCode, detail: string, nowMs: number, source: string): void {
    this.#metrics.recordRejectedInput(kind, code);
    this.#summarised(rejectedInputVerdict(this.robotId, code, detail, nowMs), source);
  }

  /** A STOP the node decides on itself; published first, then its verdict. */
  #orderStop(code: EdgeStopCode, detail: string): void {
    try {
      const stop = this.#gate.protectiveStop(detail, this.#clock());
      this.#publishStop(stop);
      this.#inFlight.track(this.#recordAndPublish(nodeStopVerdict(stop, code, detail)));
    } catch (err) {
      this.#log.error({ err }, 'could not sign a protective STOP');
    }
  }

  #expireConsents(): void {
    if (this.#state !== 'running') return;
    this.#flushRefusals();
    try {
      for (const result of this.#gate.expireConsents(this.#clock()))
        this.#onTrapResult(result, 'consent', 'consent');
    } catch (err) {
      this.#log.error({ err }, 'consent expiry failed');
    }
  }

  #monitorMotion(): void {
    if (this.#state !== 'running') return;
    if (this.#clockStepped()) return;
    if (this.#stopOwed && this.#transport.isConnected()) {
      this.#stopOwed = false;
      this.#orderStop(
        'STOP_OWED',
        'an earlier STOP was not delivered (link down or unacknowledged); sent again',
      );
      return;
    }
    try {
      const stopped = this.#gate.monitor(this.#clock());
      if (!stopped) return;
      this.#publishStop(stopped.stop);
      this.#inFlight.track(this.#recordAndPublish(stopped.verdict));
    } catch (err) {
      this.#log.error({ err }, 'motion monitor failed');
    }
  }

  /**
   * Frame ages, command validity and a motion's end are all measured on the wall clock. A step forward makes a
   * running motion look finished, so its monitoring would end silently while the robot still moves; a step
   * back shifts every age. Either way the node stops the robot (an idle robot takes a STOP as a no-op).
   */
  #clockStepped(): boolean {
    const stepMs = this.#wallClock.step();
    if (stepMs === undefined) return false;
    this.#orderStop(
      'CLOCK_STEP',
      `the wall clock stepped ${stepMs > 0 ? 'forward' : 'back'} by ${Math.round(Math.abs(stepMs))} ms`,
    );
    return true;
  }

  /** Resolves when every message handled so far has been published and recorded. */
  settled(): Promise<void> {
    return this.#inFlight.settled();
  }

  /**
   * Graceful shutdown: stop taking messages, stop the robot (a motion must not outlive its gate), finish
   * in-flight work, flush the outbox, close the transport.
   */
  async stop(reason = 'edge node shutting down'): Promise<void> {
    if (this.#state !== 'running') return;
    this.#state = 'stopping';
    clearInterval(this.#consentTimer);
    clearInterval(this.#monitorTimer);
    if (this.#transport.isConnected()) this.#orderStop('SHUTDOWN', reason);
    this.#flushRefusals(true);
    await this.settled();
    await this.#outbox
      .close()
      .catch((err: Error) => this.#log.error({ err }, 'audit outbox did not close cleanly'));
    await this.#transport.close();
    this.#state = 'stopped';
    this.#log.info({ reason }, 'edge node stopped');
  }
}
