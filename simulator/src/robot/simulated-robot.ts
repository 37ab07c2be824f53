/**
 * The simulated robot: its arm or base, battery, proximity sensors and firmware report, moved by the motor
 * controller's setpoints, and the telemetry frames (protocol TelemetryFrame) it reports at each step. It knows
 * nothing about transports; the runner publishes what `step` returns.
 */
import type { JointStateFrame, RobotProfile, TelemetryFrame } from '@pentagate/protocol';
import type { MotorController } from '../controller/motor-controller.js';
import { ArmModel } from '../models/arm-model.js';
import { BatteryModel } from '../models/battery-model.js';
import { DiffDriveBase } from '../models/diff-drive-base.js';
import type { FirmwareIdentity } from '../models/firmware-report.js';
import type { PersonPath } from '../models/person-path.js';
import { ProximitySensor, type SensorFault } from '../models/proximity-sensor.js';
import { SeededRandom } from '../models/random.js';
import { TelemetrySchedule } from './telemetry-schedule.js';

export interface SensorSettings {
  noiseSigmaM: number;
  latencyMs: number;
  dropoutProbability: number;
  rangeM: number;
}

export interface SimulatedRobotOptions {
  profile: RobotProfile;
  controller: MotorController;
  firmware: FirmwareIdentity;
  people: readonly PersonPath[];
  initialJointsRad?: readonly number[];
  stateOfCharge?: number;
  sensors?: Partial<SensorSettings>;
  seed?: number;
  /** Added to each joint's measured effort (a stuck brake, a collision), N·m. */
  effortOffsetNm?: readonly number[];
  /**
   * Seq of every source's first frame (default 1). The edge refuses a seq that is not greater than the last
   * it saw from a source, so a new robot talking to the same edge (the demo's next round) continues above
   * the previous robot's `lastSeq`.
   */
  firstSeq?: number;
  /**
   * Per source, the seq of its first frame, over `firstSeq`: the demo's next round continues each source's
   * own count. One common start above the highest seq would make a slow source (battery, firmware) jump by
   * as many frames as the fastest sent, past the edge's SEQ_MAX_GAP (1000) after a round of over ~10 s at
   * 100 Hz — a discontinuity the edge answers with STALE_DATA until the source re-synchronises.
   */
  firstSeqs?: ReadonlyMap<string, number>;
}

/** One step's ground truth, for the trace and the expectations. */
export interface RobotSample {
  tMs: number;
  moving: boolean;
  positionsRad: number[];
  velocitiesRadS: number[];
  effortsNm: number[];
  base?: { xM: number; yM: number; yawRad: number; linearMps: number };
  nearestHumanM: number | null;
  voltageV: number;
  currentA: number;
  stateOfCharge: number;
  executingSeq: number | null;
}

export const DEFAULT_SENSOR_SETTINGS: SensorSettings = {
  noiseSigmaM: 0.01,
  latencyMs: 5,
  dropoutProbability: 0,
  rangeM: 10,
};

export class SimulatedRobot {
  readonly profile: RobotProfile;
  readonly controller: MotorController;
  readonly arm: ArmModel | undefined;
  readonly base: DiffDriveBase | undefined;
  readonly battery: BatteryModel;
  readonly sensors: Map<string, ProximitySensor>;
  firmware: FirmwareIdentity;
  readonly #people: readonly PersonPath[];
  readonly #schedule: TelemetrySchedule;
  readonly #seqs = new Map<string, number>();
  readonly #firstSeq: number;
  readonly #firstSeqs: ReadonlyMap<string, number>;
  #extraDrainWh = 0;
  effortOffsetNm: number[];

  constructor(options: SimulatedRobotOptions) {
    const p = options.profile;
    this.profile = p;
    this.controller = options.controller;
    this.firmware = options.firmware;
    this.#people = options.people;
    this.arm = p.joints.length > 0 ? new ArmModel(p.joints, options.initialJointsRad ?? []) : undefined;
    this.base = p.base ? new DiffDriveBase(p.base) : undefined;
    this.battery = new BatteryModel(p.battery, options.stateOfCharge ?? 0.9);
    this.effortOffsetNm = [...(options.effortOffsetNm ?? p.joints.map(() => 0))];
    this.#firstSeq = options.firstSeq ?? 1;
    this.#firstSeqs = options.firstSeqs ?? new Map();
    const rng = new SeededRandom(options.seed ?? 1);
    const settings = { ...DEFAULT_SENSOR_SETTINGS, ...options.sensors };
    const proximity = p.sources.filter((s) => s.kind === 'proximity');
    this.sensors = new Map(
      proximity.map((s) => [
        s.name,
        new ProximitySensor(
          {
            robotId: p.robotId,
            source: s.name,
            rateHz: 1000 / Math.min(40, s.maxAgeMs / 4),
            firstSeq: this.#firstSeqOf(s.name),
            ...settings,
          },
          rng,
        ),
      ]),
    );
    this.#schedule = new TelemetrySchedule(p.sources.filter((s) => s.kind !== 'proximity'));
  }

  get currentJointsRad(): number[] {
    return this.arm?.state.positionsRad ?? [];
  }

  setSensorFault(source: string | undefined, fault: SensorFault | undefined): void {
    for (const [name, sensor] of this.sensors)
      if (source === undefined || source === name) sensor.setFault(fault);
  }

  /** Scripted battery drain: lowers the state of charge by `wh` over the next step. */
  drain(wh: number): void {
    this.#extraDrainWh += wh;
  }

  /** Where the robot's reference point is, for distances to people (the base origin). */
  #origin(): { x: number; y: number } {
    const pose = this.base?.pose;
    return pose ? { x: pose.xM, y: pose.yM } : { x: 0, y: 0 };
  }

  nearestHumanM(tMs: number): number | null {
    const o = this.#origin();
    let best: number | null = null;
    for (const person of this.#people) {
      const d = person.distanceM(tMs, o.x, o.y);
      if (best === null || d < best) best = d;
    }
    return best;
  }

  /**
   * Advances `dtMs` to scenario time `tMs` (wall time `nowMs` stamps the frames) and returns the frames due.
   */
  step(tMs: number, nowMs: number, dtMs: number): { frames: TelemetryFrame[]; sample: RobotSample } {
    const sp = this.controller.setpoint(nowMs);
    if (this.arm) this.arm.step(dtMs, sp?.kind === 'joint' ? sp.positionsRad : undefined);
    if (this.base) this.base.step(dtMs, sp?.kind === 'twist' ? sp : undefined);
    const mechW = (this.arm?.mechanicalPowerW() ?? 0) + (this.base?.mechanicalPowerW() ?? 0);
    this.battery.step(
      dtMs,
      this.profile.battery.idlePowerW + mechW / this.profile.battery.efficiency,
      this.#extraDrainWh,
    );
    this.#extraDrainWh = 0;

    const truth = this.nearestHumanM(tMs);
    const frames: TelemetryFrame[] = [];
    for (const sensor of this.sensors.values()) frames.push(...sensor.step(nowMs, truth));
    for (const source of this.#schedule.due(nowMs)) {
      const frame = this.#frameFor(source, nowMs);
      if (frame) frames.push(frame);
    }
    const arm = this.arm?.state;
    const battery = this.battery.reading();
    const pose = this.base?.pose;
    return {
      frames,
      sample: {
        tMs,
        moving: (this.arm?.isMoving() ?? false) || (this.base?.isMoving() ?? false),
        positionsRad: arm?.positionsRad ?? [],
        velocitiesRadS: arm?.velocitiesRadS ?? [],
        effortsNm: arm ? arm.effortsNm.map((e, i) => e + (this.effortOffsetNm[i] ?? 0)) : [],
        ...(pose && this.base ? { base: { ...pose, linearMps: this.base.linearMps } } : {}),
        nearestHumanM: truth,
        voltageV: battery.voltageV,
        currentA: battery.currentA,
        stateOfCharge: battery.stateOfCharge,
        executingSeq: this.controller.execution?.seq ?? null,
      },
    };
  }

  /** The highest seq any source has used so far (firstSeq − 1 before the first frame). */
  get lastSeq(): number {
    let last = this.#firstSeq - 1;
    for (const seq of this.#seqs.values()) last = Math.max(last, seq);
    for (const sensor of this.sensors.values()) last = Math.max(last, sensor.lastSeq);
    return last;
  }

  /** Each source's last seq (firstSeq − 1 for one that sent nothing yet): where a next robot continues. */
  get lastSeqs(): Map<string, number> {
    const last = new Map<string, number>();
    for (const [source, first] of this.#firstSeqs) last.set(source, first - 1);
    for (const [source, seq] of this.#seqs) last.set(source, seq);
    for (const [source, sensor] of this.sensors) last.set(source, sensor.lastSeq);
    return last;
  }

  #firstSeqOf(source: string): number {
    return this.#firstSeqs.get(source) ?? this.#firstSeq;
  }

  #nextSeq(source: string): number {
    const seq = (this.#seqs.get(source) ?? this.#firstSeqOf(source) - 1) + 1;
    this.#seqs.set(source, seq);
    return seq;
  }

  #frameFor(source: string, nowMs: number): TelemetryFrame | undefined {
    const spec = this.profile.sources.find((s) => s.name === source);
    const common = { v: 1 as const, robotId: this.profile.robotId, source, stampMs: Math.round(nowMs) };
    const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
    switch (spec?.kind) {
      case 'joint-state': {
        if (!this.arm) return undefined;
        const s = this.arm.state;
        const frame: JointStateFrame = {
          ...common,
          seq: this.#nextSeq(source),
          kind: 'joint-state',
          names: this.profile.joints.map((j) => j.name),
          positionsRad: s.positionsRad.map(r6),
          velocitiesRadS: s.velocitiesRadS.map(r6),
          effortsNm: s.effortsNm.map((e, i) => r6(e + (this.effortOffsetNm[i] ?? 0))),
        };
        return frame;
      }
      case 'pose': {
        const pose = this.base?.pose ?? { xM: 0, yM: 0, yawRad: 0 };
        return {
          ...common,
          seq: this.#nextSeq(source),
          kind: 'pose',
          positionM: { x: r6(pose.xM), y: r6(pose.yM), z: 0 },
          orientation: { x: 0, y: 0, z: Math.sin(pose.yawRad / 2), w: Math.cos(pose.yawRad / 2) },
        };
      }
      case 'battery': {
        const b = this.battery.reading();
        return {
          ...common,
          seq: this.#nextSeq(source),
          kind: 'battery',
          voltageV: r6(b.voltageV),
          currentA: r6(b.currentA),
          stateOfCharge: r6(b.stateOfCharge),
        };
      }
      case 'firmware':
        return {
          ...common,
          seq: this.#nextSeq(source),
          kind: 'firmware',
          imageSha256: this.firmware.imageSha256,
          version: this.firmware.version,
        };
      default:
        return undefined;
    }
  }
}
