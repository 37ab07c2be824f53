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
import { type Intent, type VerdictEvent, robotTopics } from '@pentagate/protocol';
import { MotorController } from '../controller/motor-controller.js';
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
import { SimulatedOperator } from './operator.js';
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
  /** Ends the run early (Ctrl-C in the demo). */
  signal?: AbortSignal;
  /** A cell already running with these credentials (the demo loops one scenario against one edge). */
  prepared?: { credentials: RobotCredentials; cell: RobotCell };
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
  /** The edge's log tail when the run failed. */
  edgeLogTail?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runScenario(loaded: LoadedScenario, options: RunOptions = {}): Promise<ScenarioResult> {
  const { scenario, profile } = loaded;
  const transport = options.transport ?? 'mqtt';
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
      profile,
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
    const cell = options.prepared?.cell ?? (await (options.cell ?? spawnedEdgeCell())(credentials, profile));
    if (!options.prepared) cleanups.unshift(() => cell.close());
    cellLog = () => cell.log();
    const robotConn = await MqttConnection.connect(cell.robot, 'robot');
    cleanups.unshift(() => robotConn.close());
    const operatorConn = await MqttConnection.connect(cell.operator, 'operator');
    cleanups.unshift(() => operatorConn.close());

    const controller = new MotorController({
      robotId: profile.robotId,
      keys: new Map([[credentials.hmacKey.kid, credentials.hmacKey.key]]),
      jointNames: profile.joints.map((j) => j.name),
      watchdogMs: scenario.watchdogMs ?? DEFAULT_WATCHDOG_MS,
      clock: Date.now,
    });
    controller.onEvent((e) => trace.controller.push(e));
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

    robotConn.onMessage((topic, payload) => {
      if (topic === topics.cmd) wire.fromEdge(payload.toString('utf8'));
      else if (topic === topics.verdict) {
        try {
          const verdict = JSON.parse(payload.toString('utf8')) as VerdictEvent;
          trace.verdicts.push({ receivedAtMs: Date.now(), verdict });
          options.onVerdict?.(verdict, Date.now() - trace.startedAtMs);
        } catch {
          // A verdict that is not JSON is the edge's bug; the expectations will miss it and say so.
        }
      }
    });
    await robotConn.subscribe([topics.cmd, topics.verdict]);

    const operator = new SimulatedOperator(
      'operator-sim',
      (await readEd25519KeyFile(credentials.operatorKeyPath)).seed,
    );
    const intents = new Map<string, Intent>();
    const pending = [...scenario.timeline].sort((a, b) => a.at - b.at);
    const act = async (e: TimelineEvent, tMs: number): Promise<void> => {
      const log = (kind: ScenarioTrace['events'][number]['kind'], detail: string) =>
        trace.events.push({ tMs, kind, detail });
      if (e.intent) {
        const intent = planIntent(e.intent, profile.robotId, robot.arm);
        intents.set(intent.intentId, intent);
        trace.intentsAtMs.set(intent.intentId, Date.now());
        log('intent', `${intent.intentId} (${e.intent.kind})`);
        await robotConn.publish(topics.intent, JSON.stringify(intent));
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
      } else if (e.consent) {
        const intent = intents.get(e.consent.intent);
        const token = intent ? operator.answer(e.consent.decision, intent, Date.now()) : undefined;
        log('consent', `${e.consent.decision} for ${e.consent.intent}${token ? '' : ' (nothing sent)'}`);
        if (token) await operatorConn.publish(topics.consent, JSON.stringify(token));
      } else if (e.firmware) {
        robot.firmware = simulatedFirmware(e.firmware.running);
        log('firmware', `controller now runs ${e.firmware.running}`);
      } else if (e.effortOffsetNm) {
        robot.effortOffsetNm = [...e.effortOffsetNm];
        log('effort', `measured effort offset ${e.effortOffsetNm.join(', ')} N·m`);
      }
    };

    trace.startedAtMs = Date.now();
    let last = trace.startedAtMs;
    let lastProgress = -Infinity;
    while (!options.signal?.aborted) {
      const now = Date.now();
      const tMs = now - trace.startedAtMs;
      if (tMs > scenario.durationMs) break;
      while (pending.length > 0 && pending[0]!.at <= tMs) await act(pending.shift()!, tMs);
      const dtMs = Math.min(50, Math.max(1, now - last));
      last = now;
      const { frames, sample } = robot.step(tMs, now, dtMs);
      trace.samples.push(sample);
      for (const frame of frames) {
        const atMs = Date.now();
        if (frame.kind === 'proximity') {
          trace.proximity.push({ atMs, source: frame.source, nearestHumanM: frame.nearestHumanM });
        }
        void robotConn.publish(topics.telemetry(frame.source), toWireJson(frame)).catch(() => {});
      }
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
      ...(passed ? {} : { edgeLogTail: cellLog().split('\n').slice(-30).join('\n') }),
    };
  } finally {
    for (const c of cleanups) await Promise.resolve(c()).catch(() => {});
  }
}
