/**
 * The latest telemetry frame of each source the profile names, with its seq, source stamp and arrival time
 * (ARCHITECTURE.md §4). A frame is refused — and counted by reason — when it is malformed, carries a non-finite or
 * out-of-range value, belongs to another robot or an unknown source, has the wrong kind for its source,
 * does not fit the robot (joint names, quaternion norm), or its seq breaks the source's sequence rule
 * (source-sequence.ts: a discontinuity withdraws the source's latest frame until a consistent run of frames
 * re-anchors it, so no frame can lock a source out and none can overwrite fresher data). A frame older than its source's
 * `maxAgeMs` is reported as stale by `lookup()` — the Nav2 collision-monitor habit: a stale source makes the
 * verdict stop.
 *
 * Age is measured from min(arrival time, source stamp): a frame that was already old when it arrived (a
 * queue, a slow link, a replayed recording) must not be trusted for another full maxAgeMs from its arrival —
 * measured from arrival alone, a frame stamped maxAgeMs − ε before arrival could decide a motion up to
 * ≈2 × maxAgeMs after the sensor saw the scene. Clock assumption: source clocks are synchronised with the
 * edge's (NTP/PTP) to well within the smallest maxAgeMs. A source clock running behind makes its frames look
 * older (fail closed: STALE_DATA); a stamp ahead of the arrival is clamped to the arrival, so a fast source
 * clock never buys a frame extra life.
 *
 * Each accepted frame is canonicalised once (RFC 8785) at ingest and the stored frame is parsed back from
 * those bytes: the gates read exactly the values the evidence digest covers, later changes to the caller's
 * object cannot reach them, and the evidence digest splices the stored bytes instead of re-serialising.
 */
import {
  type RobotProfile,
  type SourceProfile,
  type TelemetryFrame,
  TelemetryFrameSchema,
  canonicalize,
  isTelemetryFrame,
  type EdgeViolationCode,
  schemaIssues,
  utf8Bytes,
} from '@pentagate/protocol';
import { SensorKeys } from './sensor-keys.js';
import { SourceSequence } from './source-sequence.js';

export type TelemetryRejection =
  | 'malformed'
  | 'wrong-robot'
  | 'unknown-source'
  | 'wrong-kind'
  | 'out-of-range'
  | 'out-of-order'
  | 'duplicate'
  | 'unauthenticated';

/** The registered violation code of each refusal (exhaustive: a new reason does not compile without one). */
export const TELEMETRY_REFUSAL_CODES = {
  malformed: 'INPUT.TELEMETRY_MALFORMED',
  'wrong-robot': 'INPUT.TELEMETRY_WRONG_ROBOT',
  'unknown-source': 'INPUT.TELEMETRY_UNKNOWN_SOURCE',
  'wrong-kind': 'INPUT.TELEMETRY_WRONG_KIND',
  'out-of-range': 'INPUT.TELEMETRY_OUT_OF_RANGE',
  'out-of-order': 'INPUT.TELEMETRY_OUT_OF_ORDER',
  duplicate: 'INPUT.TELEMETRY_DUPLICATE',
  unauthenticated: 'INPUT.TELEMETRY_UNAUTHENTICATED',
} as const satisfies Record<TelemetryRejection, EdgeViolationCode>;

export const TELEMETRY_REJECTIONS = Object.keys(TELEMETRY_REFUSAL_CODES) as readonly TelemetryRejection[];

export interface StoredFrame<F extends TelemetryFrame = TelemetryFrame> {
  frame: F;
  arrivalMs: number;
  /** min(arrivalMs, frame.stampMs): the instant the frame's age is measured from, Unix ms. */
  originMs: number;
  /** RFC 8785 bytes of `frame` (the stored frame was parsed back from them). */
  canonical: Uint8Array;
}

export type FreshFrame<F extends TelemetryFrame = TelemetryFrame> = StoredFrame<F> & { ageMs: number };

export type FrameLookup<F extends TelemetryFrame = TelemetryFrame> =
  | ({ status: 'fresh' } & FreshFrame<F>)
  | { status: 'stale'; frame: F; ageMs: number; maxAgeMs: number }
  /** No frame; `withdrawn`: why the last one was withdrawn (an unusable frame arrived), when it was. */
  | { status: 'missing'; withdrawn?: string }
  /** The source broke its seq rule and waits for `framesNeeded` consistent frames over `spanLeftMs` more (source-sequence.ts). */
  | { status: 'resync'; framesNeeded: number; spanLeftMs: number };

export type IngestResult =
  | {
      accepted: true;
      frame: TelemetryFrame;
      /** Joint names not in the profile, ignored, that no frame carried before (each is reported once). */
      newlyIgnoredJoints?: string[];
    }
  | {
      accepted: false;
      reason: TelemetryRejection;
      detail: string;
      /**
       * The source's latest frame was just withdrawn (a seq discontinuity, or an unusable frame on its topic):
       * it now reads as stale or missing.
       */
      withdrawn?: boolean;
    };

/** True when `value` holds a NaN or ±Infinity anywhere (depth-limited; JSON cannot carry them, JS callers can). */
function hasNonFinite(value: unknown, depth = 0): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (value === null || typeof value !== 'object' || depth > 8) return false;
  for (const v of Object.values(value)) if (hasNonFinite(v, depth + 1)) return true;
  return false;
}

function finiteArray(xs: readonly number[]): boolean {
  for (const x of xs) if (!Number.isFinite(x)) return false;
  return true;
}

/** Whose latest frame a refused frame withdraws, and whether the frame proved it came from that source. */
interface WithdrawnBy {
  source: string;
  authentic: boolean;
}

export class TelemetryStore {
  readonly #profile: RobotProfile;
  readonly #sources: Map<string, SourceProfile>;
  readonly #latest = new Map<string, StoredFrame>();
  /** Sources whose latest frame an unusable frame withdrew, with that frame's refusal (until the next frame). */
  readonly #withdrawnBecause = new Map<string, string>();
  readonly #sequences = new Map<string, SourceSequence>();
  readonly #rejected = new Map<TelemetryRejection, number>(TELEMETRY_REJECTIONS.map((r) => [r, 0]));
  readonly #jointNames: Set<string>;
  readonly #ignoredJoints = new Set<string>();
  readonly #keys: SensorKeys;

  /** `sensorKeys`: the sensor nodes' HMAC keys by key id (`--sensor-key`), for `authenticated` sources. */
  constructor(profile: RobotProfile, sensorKeys: ReadonlyMap<string, Uint8Array> = new Map()) {
    this.#profile = profile;
    this.#keys = new SensorKeys(profile, sensorKeys);
    this.#sources = new Map(profile.sources.map((s) => [s.name, s]));
    this.#jointNames = new Set(profile.joints.map((j) => j.name));
  }

  /** Counts of refused frames by reason. */
  rejectionCounts(): Record<TelemetryRejection, number> {
    return Object.fromEntries(this.#rejected) as Record<TelemetryRejection, number>;
  }

  /** Joint names that accepted frames carried and the profile does not name (ignored), in order of appearance. */
  ignoredJoints(): string[] {
    return [...this.#ignoredJoints];
  }

  #ignore(frame: TelemetryFrame): string[] {
    if (frame.kind !== 'joint-state') return [];
    const fresh = frame.names.filter((n) => !this.#jointNames.has(n) && !this.#ignoredJoints.has(n));
    for (const n of fresh) this.#ignoredJoints.add(n);
    return fresh;
  }

  #reject(reason: TelemetryRejection, detail: string, withdrawFrom?: WithdrawnBy): IngestResult {
    this.#rejected.set(reason, (this.#rejected.get(reason) ?? 0) + 1);
    const withdrawn =
      withdrawFrom !== undefined && this.#withdraw(withdrawFrom.source, withdrawFrom.authentic, detail);
    return { accepted: false, reason, detail, ...(withdrawn ? { withdrawn } : {}) };
  }

  /**
   * A frame that arrived on `source`'s topic and cannot be used (unreadable JSON, a value out of range, the
   * wrong kind): the source is live but says nothing the gates may read, so its latest frame is withdrawn at
   * once and the source reads as missing (DESIGN: stale or missing proximity counts as a human present).
   * Kept, the last "nobody there" went on deciding moves, and a running motion went on, until it aged out —
   * more leniently than a reordered frame, which withdraws at once (source-sequence.ts).
   *
   * Not for an authenticated source unless the frame proved it came from its sensor (`authentic`: its MAC
   * verified): anyone could send an unreadable frame on the topic, and it must not withdraw the real
   * sensor's data. An unauthenticated source's frames are taken unsigned, so an unusable one is its word too.
   * True when a frame was withdrawn.
   */
  #withdraw(sourceName: string, authentic: boolean, because: string): boolean {
    const source = this.#sources.get(sourceName);
    if (source === undefined || (source.authenticated === true && !authentic)) return false;
    if (!this.#latest.delete(sourceName)) return false;
    this.#withdrawnBecause.set(sourceName, because);
    return true;
  }

  /** `#withdraw` for a message on `topicSource`'s topic that was not even JSON (edge-node.ts). */
  withdrawUnreadable(topicSource: string): boolean {
    return this.#withdraw(topicSource, false, 'a message that is not JSON');
  }

  #rangeProblem(f: TelemetryFrame, source: SourceProfile): { problem: string; otherPart?: true } | undefined {
    switch (f.kind) {
      case 'proximity': {
        // A reading past the sensor's range is no measurement: most often millimetres sent as metres, where a
        // person at 500 mm would read as 500 m away. Refused, it withdraws the source (RISK reads it missing).
        const rangeM = source.maxRangeM;
        if (rangeM !== undefined && f.nearestHumanM !== null && f.nearestHumanM > rangeM) {
          return {
            problem: `nearestHumanM ${f.nearestHumanM} m is beyond the sensor's ${rangeM} m range (maxRangeM); is it in millimetres?`,
          };
        }
        return undefined;
      }
      case 'joint-state': {
        const n = f.names.length;
        // Velocities and efforts may be absent (empty), as in sensor_msgs/JointState; gate-context.ts fails the
        // gates that need them.
        const fits = (xs: readonly number[]) => xs.length === n || xs.length === 0;
        if (f.positionsRad.length !== n || !fits(f.velocitiesRadS) || !fits(f.effortsNm)) {
          return {
            problem: `expected ${n} positions, and ${n} or no velocities and efforts (one per name), got ${f.positionsRad.length}, ${f.velocitiesRadS.length}, ${f.effortsNm.length}`,
          };
        }
        // Joints the profile does not name (a gripper's finger_joint on the arm's /joint_states: sensor_msgs/
        // JointState carries every joint of the robot) are ignored, not refused; the gates take the profile's
        // joints by name and fail closed on one that is missing. A frame with none of them is another part's.
        if (!f.names.some((name) => this.#jointNames.has(name))) {
          return { problem: `none of its joints (${f.names.join(', ')}) is in the profile`, otherPart: true };
        }
        if (!finiteArray(f.positionsRad) || !finiteArray(f.velocitiesRadS) || !finiteArray(f.effortsNm)) {
          return { problem: 'expected finite numbers' };
        }
        return undefined;
      }
      case 'pose': {
        const q = f.orientation;
        const norm = Math.hypot(q.x, q.y, q.z, q.w);
        if (!(Math.abs(norm - 1) <= 1e-3)) return { problem: `expected a unit quaternion, got norm ${norm}` };
        return undefined;
      }
      default:
        return undefined;
    }
  }

  /**
   * Validates and stores a frame; never throws. `topicSource`: the source whose topic carried it (MQTT
   * `telemetry/<source>`), whose latest frame an unusable frame withdraws (`#withdraw`).
   */
  ingest(input: unknown, arrivalMs: number, topicSource?: string): IngestResult {
    const onTopic = topicSource === undefined ? undefined : { source: topicSource, authentic: false };
    if (!isTelemetryFrame(input)) {
      const issues = schemaIssues(TelemetryFrameSchema, input);
      // Non-finite numbers fail the schema; name them so operators can tell a broken sensor from a broken sender.
      if (hasNonFinite(input))
        return this.#reject('out-of-range', 'telemetry frame: non-finite number (NaN or Infinity)', onTopic);
      const firstIssue = issues[0];
      return this.#reject(
        'malformed',
        firstIssue
          ? `telemetry frame ${firstIssue.path || '/'}: ${firstIssue.message}`
          : 'telemetry frame: not a frame',
        onTopic,
      );
    }
    const frame = input;
    if (frame.robotId !== this.#profile.robotId) {
      return this.#reject(
        'wrong-robot',
        `frame for robot ${frame.robotId}, this edge serves ${this.#profile.robotId}`,
        onTopic,
      );
    }
    const source = this.#sources.get(frame.source);
    if (!source)
      return this.#reject('unknown-source', `source ${JSON.stringify(frame.source)} is not in the profile`);
    if (source.kind !== frame.kind) {
      return this.#reject(
        'wrong-kind',
        `source ${frame.source} carries ${source.kind} frames, got ${frame.kind}`,
        { source: frame.source, authentic: false },
      );
    }
    // Authenticity before anything else is read from the frame: an unsigned reading of an authenticated
    // source must not even reach the sequence rule, or a forged seq could withdraw the real sensor's frame.
    const forged = this.#keys.macProblem(source, frame);
    if (forged) return this.#reject('unauthenticated', `${frame.source}: ${forged}`);
    const range = this.#rangeProblem(frame, source);
    if (range) {
      // authentic: its MAC verified above, or the source takes unsigned frames. Another part's joint states
      // on the same topic (no joint of the profile) say nothing about this robot and withdraw nothing.
      const withdraw = range.otherPart ? undefined : { source: frame.source, authentic: true };
      return this.#reject('out-of-range', `${frame.source}: ${range.problem}`, withdraw);
    }
    let text: string;
    try {
      text = canonicalize(frame);
    } catch (err) {
      // Unreachable for a schema-valid frame (finite numbers, ASCII names); refused rather than thrown anyway.
      return this.#reject('malformed', `telemetry frame: ${(err as Error).message}`);
    }
    let sequence = this.#sequences.get(frame.source);
    if (!sequence) {
      sequence = new SourceSequence(source.maxAgeMs);
      this.#sequences.set(frame.source, sequence);
    }
    const last = this.#latest.get(frame.source);
    const seq = sequence.judge(frame.source, frame.seq, arrivalMs, () => {
      if (!last) return false;
      const bytes = utf8Bytes(text);
      return bytes.length === last.canonical.length && bytes.every((b, i) => b === last.canonical[i]);
    });
    if (seq.kind === 'duplicate') return this.#reject('duplicate', seq.detail);
    if (seq.kind === 'resync') {
      if (seq.withdrawn) this.#latest.delete(frame.source);
      this.#rejected.set('out-of-order', (this.#rejected.get('out-of-order') ?? 0) + 1);
      return { accepted: false, reason: 'out-of-order', detail: seq.detail, withdrawn: seq.withdrawn };
    }
    const stored: StoredFrame = {
      frame: JSON.parse(text) as TelemetryFrame,
      arrivalMs,
      originMs: Math.min(arrivalMs, frame.stampMs),
      canonical: utf8Bytes(text),
    };
    this.#latest.set(frame.source, stored);
    this.#withdrawnBecause.delete(frame.source);
    const ignored = this.#ignore(stored.frame);
    return {
      accepted: true,
      frame: stored.frame,
      ...(ignored.length > 0 ? { newlyIgnoredJoints: ignored } : {}),
    };
  }

  /**
   * The latest frame of `source`, classified by age at `nowMs`: age = nowMs − min(arrival, source stamp).
   * A frame that arrives after `nowMs` (a clock that went backwards) is stale too.
   */
  lookup<F extends TelemetryFrame = TelemetryFrame>(source: string, nowMs: number): FrameLookup<F> {
    const stored = this.#latest.get(source) as StoredFrame<F> | undefined;
    const spec = this.#sources.get(source);
    const sequence = this.#sequences.get(source);
    if (sequence?.resynchronising) {
      return {
        status: 'resync',
        framesNeeded: sequence.framesNeeded,
        spanLeftMs: sequence.spanLeftMs(nowMs),
      };
    }
    if (!stored || !spec) {
      const withdrawn = this.#withdrawnBecause.get(source);
      return withdrawn === undefined ? { status: 'missing' } : { status: 'missing', withdrawn };
    }
    const ageMs = nowMs - stored.originMs;
    if (ageMs > spec.maxAgeMs || nowMs < stored.arrivalMs)
      return { status: 'stale', frame: stored.frame, ageMs, maxAgeMs: spec.maxAgeMs };
    return {
      status: 'fresh',
      frame: stored.frame,
      arrivalMs: stored.arrivalMs,
      originMs: stored.originMs,
      canonical: stored.canonical,
      ageMs,
    };
  }

  /** Names of the sources of `kind`, in profile order. */
  sourcesOf(kind: TelemetryFrame['kind']): string[] {
    return this.#profile.sources.filter((s) => s.kind === kind).map((s) => s.name);
  }

  /** Forgets every frame (after a configuration change the gates want fresh evidence). */
  clear(): void {
    this.#latest.clear();
    this.#sequences.clear();
  }
}
