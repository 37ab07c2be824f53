/**
 * Writes rosbag2-style MCAP recordings for the transport tests with the real MCAP writer and CDR serializer:
 * a healthy UR5e cell scene (joint states, two proximity scans, battery, firmware, a planned trajectory) with
 * scripted events, and building blocks for malformed files. Not a test file itself.
 */
import { McapWriter } from '@mcap/core';
import lz4js from 'lz4js';
import type { Intent, RobotProfile } from '@pentagate/protocol';
import { McapFileSink } from '../../../src/mcap/mcap-file-sink.js';
import { RosbagWriter } from '../../../src/mcap/rosbag-writer.js';
import { ROS_TYPES } from '../../../src/ros/ros-types.js';
import { FIRMWARE_SHA, HOME } from '../../trap/fixtures.js';

export const stamp = (ms: number) => ({ sec: Math.floor(ms / 1000), nanosec: (ms % 1000) * 1e6 });
export const header = (ms: number) => ({ stamp: stamp(ms), frame_id: 'base_link' });

export function jointStateMsg(profile: RobotProfile, ms: number, effort = [10, 40, 20, 2, 1, 0.5]) {
  return {
    header: header(ms),
    name: profile.joints.map((j) => j.name),
    position: [...HOME],
    velocity: HOME.map(() => 0),
    effort,
  };
}

/** A 5-beam scan from -1 to 1 rad; `nearestM` null means nothing within range (+Inf everywhere). */
export function scanMsg(ms: number, nearestM: number | null, fill = Number.POSITIVE_INFINITY) {
  const ranges = [fill, fill, nearestM ?? fill, fill, fill];
  return {
    header: header(ms),
    angle_min: -1,
    angle_max: 1,
    angle_increment: 0.5,
    time_increment: 0,
    scan_time: 0.02,
    range_min: 0.05,
    range_max: 20,
    ranges,
    intensities: [],
  };
}

export function batteryMsg(ms: number) {
  return {
    header: header(ms),
    voltage: 48,
    temperature: 30,
    current: -2,
    charge: Number.NaN,
    capacity: Number.NaN,
    design_capacity: Number.NaN,
    percentage: 0.8,
    power_supply_status: 2,
    power_supply_health: 1,
    power_supply_technology: 0,
    present: true,
    cell_voltage: [],
    cell_temperature: [],
    location: 'base',
    serial_number: 'B-1',
  };
}

export function firmwareMsg(imageSha256 = FIRMWARE_SHA) {
  return { data: JSON.stringify({ imageSha256, version: '5.11.1' }) };
}

export function trajectoryMsg(intent: Extract<Intent, { kind: 'joint-trajectory' }>, ms: number) {
  return {
    header: header(ms),
    joint_names: intent.jointNames,
    points: intent.points.map((p) => ({
      positions: p.positionsRad,
      velocities: p.velocitiesRadS ?? [],
      accelerations: [],
      effort: p.effortsNm ?? [],
      time_from_start: stamp(p.timeFromStartMs),
    })),
  };
}

export const TOPICS = {
  joints: '/joint_states',
  front: '/proximity_front',
  rear: '/proximity_rear',
  battery: '/battery',
  firmware: '/firmware',
  intent: '/pentagate/intent',
  consent: '/pentagate/consent',
} as const;

/** What the scene writer needs: MCAP (RosbagWriter) or sqlite3 (Db3Writer). */
export interface SceneWriter {
  rosChannel(topic: string, rosType: string): Promise<void>;
  write(topic: string, message: unknown, logTimeMs: number): Promise<void>;
  finish(): Promise<void>;
}

/** Compresses MCAP chunks as LZ4 frames (lz4js), compression `lz4` as the MCAP spec names it. */
export const lz4Chunks = (data: Uint8Array) => ({
  compression: 'lz4',
  compressedData: Uint8Array.from(lz4js.compress(data)),
});

export async function openBag(
  path: string,
  compressChunk?: typeof lz4Chunks,
): Promise<RosbagWriter & { finish(): Promise<void> }> {
  const sink = await McapFileSink.create(path);
  const bag = await RosbagWriter.open({ writable: sink, ...(compressChunk ? { compressChunk } : {}) });
  await registerSceneTopics(bag);
  return Object.assign(bag, {
    async finish() {
      await bag.end();
      await sink.close();
    },
  });
}

/**
 * A mobile base's recording: /odom, the proximity topic, /cmd_vel (TwistStamped), /battery_state and
 * /controller/firmware, the topics `baseProfileWithIntent('/cmd_vel')` reads. `finish` ends the bag and closes
 * the file.
 */
export async function openBaseBag(
  path: string,
  proximity: { topic: string; rosType: string },
  options: { useChunks?: boolean; chunkSize?: number } = {},
): Promise<RosbagWriter & { finish(): Promise<void> }> {
  const sink = await McapFileSink.create(path);
  const bag = await RosbagWriter.open({ writable: sink, ...options });
  await bag.rosChannel('/odom', ROS_TYPES.odometry);
  await bag.rosChannel(proximity.topic, proximity.rosType);
  await bag.rosChannel('/cmd_vel', ROS_TYPES.twistStamped);
  await bag.rosChannel('/battery_state', ROS_TYPES.battery);
  await bag.rosChannel('/controller/firmware', ROS_TYPES.string);
  return Object.assign(bag, {
    async finish() {
      await bag.end();
      await sink.close();
    },
  });
}

export async function registerSceneTopics(bag: Pick<SceneWriter, 'rosChannel'>): Promise<void> {
  await bag.rosChannel(TOPICS.joints, ROS_TYPES.jointState);
  await bag.rosChannel(TOPICS.front, ROS_TYPES.laserScan);
  await bag.rosChannel(TOPICS.rear, ROS_TYPES.laserScan);
  await bag.rosChannel(TOPICS.battery, ROS_TYPES.battery);
  await bag.rosChannel(TOPICS.firmware, ROS_TYPES.string);
  await bag.rosChannel(TOPICS.intent, ROS_TYPES.jointTrajectory);
  await bag.rosChannel(TOPICS.consent, ROS_TYPES.string);
}

export interface SceneEvents {
  /** Nearest human seen by the front scan at a time offset, ms → m (null = clear); applies from then on. */
  frontHumanM?: [number, number | null][];
  /** Planned trajectories sent at offsets. */
  intents?: [number, Extract<Intent, { kind: 'joint-trajectory' }>][];
  /** Proximity scans all NaN from this offset on (a broken scanner). */
  scansBrokenFromMs?: number;
}

/** Writes `durationMs` of a healthy cell at 50 Hz, starting at `t0`, with the scripted events. */
export async function writeCellRecording(
  path: string,
  profile: RobotProfile,
  t0: number,
  durationMs: number,
  events: SceneEvents = {},
  openWriter: (path: string) => Promise<SceneWriter> = openBag,
): Promise<void> {
  const bag = await openWriter(path);
  const intents = [...(events.intents ?? [])];
  for (let dt = 0; dt <= durationMs; dt += 20) {
    const t = t0 + dt;
    await bag.write(TOPICS.joints, jointStateMsg(profile, t), t);
    const human = (events.frontHumanM ?? []).filter(([at]) => at <= dt).pop()?.[1] ?? null;
    const broken = events.scansBrokenFromMs !== undefined && dt >= events.scansBrokenFromMs;
    await bag.write(TOPICS.front, broken ? scanMsg(t, null, Number.NaN) : scanMsg(t, human), t);
    await bag.write(TOPICS.rear, broken ? scanMsg(t, null, Number.NaN) : scanMsg(t, null), t);
    if (dt % 100 === 0) await bag.write(TOPICS.battery, batteryMsg(t), t);
    if (dt % 500 === 0) await bag.write(TOPICS.firmware, firmwareMsg(), t);
    while (intents.length > 0 && intents[0]![0] <= dt) {
      const [, intent] = intents.shift()!;
      await bag.write(TOPICS.intent, trajectoryMsg(intent, t), t + 1);
    }
  }
  await bag.finish();
}

/** A raw MCAP writer on a new file, for records rosbag2 would never write (other encodings, no schema). */
export async function openRawMcap(path: string): Promise<McapWriter & { finish(): Promise<void> }> {
  const sink = await McapFileSink.create(path);
  const writer = new McapWriter({ writable: sink });
  await writer.start({ profile: 'ros2', library: 'pentagate-test' });
  return Object.assign(writer, {
    async finish() {
      await writer.end();
      await sink.close();
    },
  });
}
