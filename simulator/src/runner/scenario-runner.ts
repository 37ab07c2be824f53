/**
 * Runs one scenario hardware-in-the-loop: keys and signed documents for the cell, the edge under test
 * (a real `pentagate edge run` with its embedded broker unless a test supplies another), the simulated robot
 * publishing telemetry over MQTT, the motor controller fed from the command topic (directly or down a socat
 * serial line), the attacker on the wire and the operator — then the expectations over the recorded trace.
 *
 * Time: the models step every 10 ms of the scenario clock, which is paced by the wall clock, because the edge
 * judges freshness (`maxAgeMs`) and command validity on its own wall clock. Model tests elsewhere run on
 * purely simulated time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEd25519KeyFile } from '@pentagate/crypto';
import { type DsseEnvelope, type Intent, type VerdictEvent, robotTopics } from '@pentagate/protocol';
import { type ControllerEvent, MotorController } from '../controller/motor-controller.js';
import { simulatedFirmware } from '../models/firmware-report.js';
import { PersonPath } from '../models/person-path.js';
import { SimulatedRobot } from '../robot/simulated-robot.js';
import type { LoadedScenario } from '../scenarios/load-scenario.js';
import type { TimelineEvent } from '../scenarios/scenario-schema.js';
import { type RobotCredentials, createRobotCredentials } from '../setup/robot-credentials.js';
import { MqttConnection } from '../transport/mqtt-connection.js';
import { toWireJson } from '../transport/wire-json.js';
import { CommandWire } from './command-wire.js';
import {
  type ExpectationResult,
  type VetoLatency,
  checkExpectations,
  vetoLatencies,
} from './expectations.js';
import { DEMO_OPERATOR_ID } from '../fleet/fleet-setup.js';
import { SimulatedOperator } from './operator.js';
import { DEFAULT_TIMING_FLOOR_MS, withTimingFloor } from './timing-floor.js';
import { LEAD_IN_MAX_MS, LEAD_IN_TELEMETRY_MS, LeadIn } from './lead-in.js';
import { planIntent } from './planner.js';
import { type RobotCell, type RobotCellFactory, spawnedEdgeCell } from './robot-cell.js';
import { SerialLine } from './serial-line.js';
import type { ScenarioTrace } from './trace.js';

export const STEP_MS = 10;
export const DEFAULT_FIRMWARE_VERSION = '1.4.2';
export const DEFAULT_WATCHDOG_MS = 1500;

export interface RunOptions {
  /** How commands reach the controller (default mqtt). */
  transport?: 'mqtt' | 'serial';
  cell?: RobotCellFactory;
  /** Called about every 100 ms with the scenario time. */
  onProgress?: (tMs: number, durationMs: number) => void;
  /** Called for every verdict as it arrives (the demo prints them). */
  onVerdict?: (verdict: VerdictEvent, tMs: number) => void;
  /** Called when the motor controller halts (a signed STOP, or its watchdog when valid commands stop coming). */
  onHalt?: (halt: Extract<ControllerEvent, { kind: 'halted' }>, tMs: number) => void;
  /** Ends the run early (Ctrl-C in the demo). */
  signal?: AbortSignal;
  /**
   * Run the lead-in before the scenario clock starts (default true): telemetry, then one hold-position
   * intent whose verdict and command are left out of the trace.
   */
  leadIn?: boolean;
  /** Seq of the robot's first telemetry frame per source (the demo continues the previous round's count). */
  firstTelemetrySeq?: number;
  /** Per source, over `firstTelemetrySeq`: each source continues its own count (SimulatedRobot `firstSeqs`). */
  firstTelemetrySeqs?: ReadonlyMap<string, number>;
  /** Every source's maxAgeMs at the edge is raised to at least this, ms (runner/timing-floor.ts; 0 = off). */
  timingFloorMs?: number;
  /** A cell already running with these credentials (the demo loops one scenario against one edge). */
  prepared?: { credentials: RobotCredentials; cell: RobotCell };
  /**
   * Hands the operator's tokens to the cloud's consent relay instead of publishing them on the consent
   * topic (the demo with a cloud). When the cloud is unreachable the token goes on the topic instead; a
   * refusal (rejection) is recorded and nothing is sent.
   */
  relayConsent?: (token: DsseEnvelope, intent: Intent) => Promise<'relayed' | 'cloud-unreachable'>;
}

export interface ScenarioResult {
  name: string;
  file: string;
  transport: 'mqtt' | 'serial';
  passed: boolean;
  expectations: ExpectationResult[];
  vetoLatencies: VetoLatency[];
  trace: ScenarioTrace;
  rejections: Record<string, number>;
  wallMs: number;
  /** The longest gap between two model steps (nominally 10 ms): how much the simulator itself stalled. */
  maxStepGapMs: number;
  /** The highest telemetry seq the robot used (a next run against the same edge starts above it). */
  lastTelemetrySeq: number;
  /** Each source's last telemetry seq (a next round continues each source's own count). */
  lastTelemetrySeqs: Map<string, number>;
  /** The edge's log tail when the run failed. */
  edgeLogTail?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runScenario(loaded: LoadedScenario, options: RunOptions = {}): Promise<ScenarioResult> {
  const { scenario, profile } = loaded;
  const transport = options.transport ?? 'mqtt';
  // The edge gets the profile with the timing floor; the robot publishes at the original profile's rates.
  const edgeProfile = withTimingFloor(profile, options.timingFloorMs ?? DEFAULT_TIMING_FLOOR_MS);
  const wallStart = Date.now();
  const signedVersion = scenario.firmware?.signed ?? DEFAULT_FIRMWARE_VERSION;
  const cleanups: (() => Promise<void> | void)[] = [];
  let credentials: RobotCredentials;
  if (options.prepared) credentials = options.prepared.credentials;
  else {
    const stateDir = await mkdtemp(join(tmpdir(), `pentagate-sim-${scenario.name}-`));
    cleanups.push(() => rm(stateDir, { recursive: true, force: true }));
    credentials = await createRobotCredentials({
      stateDir,
      profile: edgeProfile,
      signedFirmware: simulatedFirmware(signedVersion),
      calibration: scenario.calibration ?? 'valid',
    });
  }
  const topics = robotTopics(profile.robotId);
  const trace: ScenarioTrace = {
    startedAtMs: 0,
    samples: [],
    proximity: [],
    verdicts: [],
    controller: [],
    events: [],
    intentsAtMs: new Map(),
    radiusM: profile.risk.operatingRadiusM,
  };
  let cellLog = () => '';
  try {
    const cell =
      options.prepared?.cell ?? (await (options.cell ?? spawnedEdgeCell())(credentials, edgeProfile));
    if (!options.prepared) cleanups.unshift(() => cell.close());
    cellLog = () => cell.log();
    const robotConn = await MqttConnection.connect(cell.robot, 'robot');
    cleanups.unshift(() => robotConn.close());
    // The proximity sensors publish as their own account, as real ones do: the broker refuses a proximity
    // frame from the robot's (planner's) account, so its password cannot report "nobody there".
    let sensorConn = robotConn;
    if (cell.sensor) {
      const conn = await MqttConnection.connect(cell.sensor, 'sensor');
      cleanups.unshift(() => conn.close());
      sensorConn = conn;
    }
    // The planner publishes intents as its own account where the cell has one: a sim cell's broker lets it
    // publish nothing else, so it cannot speak for the robot's joints, battery or firmware.
    let plannerConn = robotConn;
    if (cell.planner) {
      const conn = await MqttConnection.connect(cell.planner, 'planner');
      cleanups.unshift(() => conn.close());
      plannerConn = conn;
    }
    const operatorConn = await MqttConnection.connect(cell.operator, 'operator');
    cleanups.unshift(() => operatorConn.close());

    const controller = new MotorController({
      robotId: profile.robotId,
      keys: new Map([[credentials.hmacKey.kid, credentials.hmacKey.key]]),
      jointNames: profile.joints.map((j) => j.name),
      watchdogMs: scenario.watchdogMs ?? DEFAULT_WATCHDOG_MS,
      clock: Date.now,
    });
    // Events of the lead-in (below) are not part of the scenario.
    let recording = false;
    controller.onEvent((e) => {
      if (recording) trace.controller.push(e);
      if (recording && e.kind === 'halted') options.onHalt?.(e, Date.now() - trace.startedAtMs);
    });
    const robot = new SimulatedRobot({
      profile,
      controller,
      firmware: simulatedFirmware(scenario.firmware?.running ?? signedVersion),
      people: (scenario.people ?? []).map(
        (p) =>
          new PersonPath(
            p.id,
            p.path.map((w) => ({ atMs: w.at, xM: w.x, yM: w.y })),
          ),
      ),
      ...(scenario.initial?.jointsRad ? { initialJointsRad: scenario.initial.jointsRad } : {}),
      ...(scenario.initial?.stateOfCharge !== undefined
        ? { stateOfCharge: scenario.initial.stateOfCharge }
        : {}),
      ...(scenario.sensors ? { sensors: scenario.sensors } : {}),
      seed: scenario.seed ?? 1,
      ...(options.firstTelemetrySeq !== undefined ? { firstSeq: options.firstTelemetrySeq } : {}),
      ...(options.firstTelemetrySeqs ? { firstSeqs: options.firstTelemetrySeqs } : {}),
    });

    let wire: CommandWire;
    if (transport === 'serial') {
      const line = await SerialLine.open();
      cleanups.unshift(() => line.close());
      line.onControllerFrame((frame) => controller.receive(frame, 'serial', robot.currentJointsRad));
      wire = new CommandWire((frame) => line.send(frame));
    } else {
      wire = new CommandWire((frame, via) => controller.receive(frame, via, robot.currentJointsRad));
    }
    cleanups.unshift(() => wire.close());

    const leadIn = new LeadIn(profile.robotId, robot.arm);
    const received = (topic: string, payload: Buffer) => {
      if (topic === topics.cmd) {
        if (recording) wire.fromEdge(payload.toString('utf8'));
        else controller.receive(payload.toString('utf8'), 'edge', robot.currentJointsRad);
      } else if (topic === topics.verdict) {
        try {
          const verdict = JSON.parse(payload.toString('utf8')) as VerdictEvent;
          if (leadIn.owns(verdict)) return;
          if (!recording) return;
          trace.verdicts.push({ receivedAtMs: Date.now(), verdict });
          options.onVerdict?.(verdict, Date.now() - trace.startedAtMs);
        } catch {
          // A verdict that is not JSON is the edge's bug; the expectations will miss it and say so.
        }
      }
    };
    robotConn.onMessage(received);
    if (plannerConn === robotConn) {
      await robotConn.subscribe([topics.cmd, topics.verdict]);
    } else {
      plannerConn.onMessage(received);
      await robotConn.subscribe([topics.cmd]);
      await plannerConn.subscribe([topics.verdict]);
    }

    const operator = new SimulatedOperator(
      DEMO_OPERATOR_ID,
      (await readEd25519KeyFile(credentials.operatorKeyPath)).seed,
    );
    const intents = new Map<string, Intent>();
    const pending = [...scenario.timeline].sort((a, b) => a.at - b.at);
    const send = (conn: MqttConnection, topic: string, text: string, what: string) => {
      conn.publish(topic, text).catch((err: Error) => {
        trace.events.push({
          tMs: Date.now() - trace.startedAtMs,
          kind: 'error',
          detail: `${what} not published: ${err.message}`,
        });
      });
    };
    const act = (e: TimelineEvent, tMs: number): void => {
      const log = (kind: ScenarioTrace['events'][number]['kind'], detail: string) =>
        trace.events.push({ tMs, kind, detail });
      if (e.intent) {
        const intent = planIntent(e.intent, profile.robotId, robot.arm);
        intents.set(intent.intentId, intent);
        trace.intentsAtMs.set(intent.intentId, Date.now());
        log('intent', `${intent.intentId} (${e.intent.kind})`);
        // Not awaited: waiting for the PUBACK would stall the model step, and with it the telemetry the
        // edge judges by arrival time.
        send(plannerConn, topics.intent, JSON.stringify(intent), `intent ${intent.intentId}`);
      } else if (e.sensorFault) {
        robot.setSensorFault(
          e.sensorFault.source,
          e.sensorFault.fault === 'none' ? undefined : e.sensorFault.fault,
        );
        log('fault', `${e.sensorFault.source ?? 'all proximity'}: ${e.sensorFault.fault}`);
      } else if (e.batteryDrain) {
        robot.battery.setStateOfCharge(e.batteryDrain.toStateOfCharge);
        log('battery', `state of charge → ${e.batteryDrain.toStateOfCharge}`);
      } else if (e.inject) {
        wire.inject(e.inject.attack);
        log('inject', e.inject.attack);
      } else if (e.redeliver) {
        const intent = intents.get(e.redeliver.intent);
        log('intent', `${e.redeliver.intent} again, the same bytes (a QoS 1 redelivery)`);
        if (intent)
          send(plannerConn, topics.intent, JSON.stringify(intent), `intent ${intent.intentId} again`);
      } else if (e.consent) {
        const intent = intents.get(e.consent.intent);
        const token = intent ? operator.answer(e.consent.decision, intent, Date.now()) : undefined;
        log('consent', `${e.consent.decision} for ${e.consent.intent}${token ? '' : ' (nothing sent)'}`);
        if (token && intent && options.relayConsent) {
          const what = `consent for ${e.consent.intent}`;
          options.relayConsent(token, intent).then(
            (outcome) => {
              if (outcome === 'relayed') return;
              // The operator on site still has the consent topic (`consent grant` works offline).
              log('consent', `${what}: the cloud is unreachable; published on the consent topic`);
              send(operatorConn, topics.consent, JSON.stringify(token), what);
            },
            (err: Error) => log('consent', `${what} refused by the cloud: ${err.message}`),
          );
        } else if (token)
          send(operatorConn, topics.consent, JSON.stringify(token), `consent for ${e.consent.intent}`);
      } else if (e.firmware) {
        robot.firmware = simulatedFirmware(e.firmware.running);
        log('firmware', `controller now runs ${e.firmware.running}`);
      } else if (e.effortOffsetNm) {
        robot.effortOffsetNm = [...e.effortOffsetNm];
        log('effort', `measured effort offset ${e.effortOffsetNm.join(', ')} N·m`);
      }
    };

    let last = Date.now();
    let maxStepGapMs = 0;
    /** One model step at scenario time `tMs`: telemetry out, and (when recording) a sample in the trace. */
    const step = (tMs: number, now: number) => {
      if (recording) maxStepGapMs = Math.max(maxStepGapMs, now - last);
      const dtMs = Math.min(50, Math.max(1, now - last));
      last = now;
      const { frames, sample } = robot.step(tMs, now, dtMs);
      if (recording) trace.samples.push(sample);
      for (const frame of frames) {
        if (recording && frame.kind === 'proximity') {
          trace.proximity.push({
            atMs: Date.now(),
            source: frame.source,
            nearestHumanM: frame.nearestHumanM,
          });
        }
        const conn = frame.kind === 'proximity' ? sensorConn : robotConn;
        void conn.publish(topics.telemetry(frame.source), toWireJson(frame)).catch(() => {});
      }
    };

    if (options.leadIn !== false) {
      // Telemetry first, then one harmless hold-position intent, so the edge has fresh data and has made
      // (and paid for) its first signature before the scenario clock starts (see runner/lead-in.ts).
      const leadStart = Date.now();
      while (!options.signal?.aborted) {
        const now = Date.now();
        const elapsed = now - leadStart;
        if (leadIn.done(now) || elapsed > LEAD_IN_MAX_MS) break;
        step(0, now);
        if (elapsed >= LEAD_IN_TELEMETRY_MS && !leadIn.sent) {
          send(plannerConn, topics.intent, JSON.stringify(leadIn.intent()), 'lead-in intent');
        }
        await sleep(Math.max(0, STEP_MS - (Date.now() - now)));
      }
      controller.halt('lead-in ended');
    }

    recording = true;
    trace.startedAtMs = Date.now();
    let lastProgress = -Infinity;
    while (!options.signal?.aborted) {
      const now = Date.now();
      const tMs = now - trace.startedAtMs;
      if (tMs > scenario.durationMs) break;
      while (pending.length > 0 && pending[0]!.at <= tMs) act(pending.shift()!, tMs);
      step(tMs, now);
      if (tMs - lastProgress >= 100) {
        lastProgress = tMs;
        options.onProgress?.(tMs, scenario.durationMs);
      }
      await sleep(Math.max(0, STEP_MS - (Date.now() - now)));
    }
    // Late verdicts and the STOP the edge sends when it shuts down are not part of the scenario.
    await sleep(150);
    controller.halt('scenario ended');
    const expectations = checkExpectations(scenario.expect, trace, credentials.hmacKey.key);
    if (wire.skipped.length > 0) {
      expectations.push({
        name: 'attacks delivered',
        ok: false,
        detail: `nothing to work with for ${wire.skipped.join(', ')} (no command seen on the wire yet)`,
      });
    }
    const passed = expectations.every((r) => r.ok);
    return {
      name: scenario.name,
      file: loaded.file,
      transport,
      passed,
      expectations,
      vetoLatencies: vetoLatencies(trace),
      trace,
      rejections: controller.rejections(),
      wallMs: Date.now() - wallStart,
      maxStepGapMs,
      lastTelemetrySeq: robot.lastSeq,
      lastTelemetrySeqs: robot.lastSeqs,
      ...(passed ? {} : { edgeLogTail: cellLog().split('\n').slice(-30).join('\n') }),
    };
  } finally {
    for (const c of cleanups) await Promise.resolve(c()).catch(() => {});
  }
}
