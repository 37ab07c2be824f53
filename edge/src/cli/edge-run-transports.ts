/**
 * Opens the transports `edge run --transport …` asks for, configured from the profile: MQTT (a broker URL and
 * credentials), ROS 2 (the profile's `topics.ros2` roles and QoS, role overrides from a bindings file) and a
 * serial line (`topics.serial`: path, baud rate, framing; `--serial-port` overrides the path). One transport is
 * used as it is; several are combined, with commands on the controller's transport only (combined-transport.ts).
 */
import type { RobotProfile } from '@pentagate/protocol';
import { UsageError } from '@pentagate/protocol';
import type { Logger } from 'pino';
import { logRetainedDropped, MqttTransport, type MqttTransportOptions } from '../mqtt/mqtt-transport.js';
import type { Rclnodejs } from '../ros/rclnodejs-surface.js';
import type { RosRoleOverride } from '../ros/ros-bindings.js';
import { Ros2Transport } from '../ros/ros2-transport.js';
import type { SerialFraming } from '../serial/serial-framing.js';
import { SerialTransport } from '../serial/serial-transport.js';
import {
  CombinedTransport,
  type NamedTransport,
  TRANSPORT_NAMES,
  type TransportName,
} from '../transport/combined-transport.js';
import type { RobotTransport } from '../transport/robot-transport.js';

export interface RosRunOptions {
  overrides?: Readonly<Record<string, RosRoleOverride>>;
  /** rclnodejs itself; default: loaded where ROS 2 is sourced. */
  rclnodejs?: Rclnodejs;
  nodeName?: string;
  namespace?: string;
  checkStamps?: boolean;
}

export interface SerialRunOptions {
  /** Overrides `topics.serial.path`. */
  path?: string;
}

export interface TransportPlan {
  transports: TransportName[];
  /** Where signed commands go; default: serial, else ros2, else mqtt (the first of those chosen). */
  commandsOn?: TransportName;
}

/** `--transport` values: repeatable and comma-separated (`ros2,serial`). Throws UsageError on others. */
export function parseTransports(values: readonly string[]): TransportName[] {
  const names = values.flatMap((v) => v.split(',')).map((v) => v.trim());
  const chosen: TransportName[] = [];
  for (const n of names.length === 0 ? ['mqtt'] : names) {
    if (!(TRANSPORT_NAMES as readonly string[]).includes(n)) {
      throw new UsageError(`--transport: expected ${TRANSPORT_NAMES.join(', ')}, got ${JSON.stringify(n)}`);
    }
    if (!chosen.includes(n as TransportName)) chosen.push(n as TransportName);
  }
  return chosen;
}

/** The transport commands go out on. Throws UsageError when `--commands-on` names one not chosen. */
export function commandTransport(plan: TransportPlan): TransportName {
  if (plan.commandsOn !== undefined) {
    if (!plan.transports.includes(plan.commandsOn)) {
      throw new UsageError(
        `--commands-on ${plan.commandsOn}: not among --transport ${plan.transports.join(',')}`,
      );
    }
    return plan.commandsOn;
  }
  return (['serial', 'ros2', 'mqtt'] as const).find((n) => plan.transports.includes(n)) as TransportName;
}

export interface OpenTransportsOptions extends TransportPlan {
  profile: RobotProfile;
  /** Needed when `mqtt` is chosen. */
  mqtt?: Omit<MqttTransportOptions, 'robotId' | 'onStateChange'>;
  ros?: RosRunOptions;
  serial?: SerialRunOptions;
  logger: Logger;
}

function serialSettings(profile: RobotProfile, options: SerialRunOptions | undefined) {
  const configured = profile.topics?.serial;
  const path = options?.path ?? configured?.path;
  if (path === undefined) {
    throw new UsageError(
      `--transport serial: profile ${profile.robotId} has no topics.serial and no --serial-port was given`,
    );
  }
  return {
    path,
    baudRate: configured?.baudRate ?? 115_200,
    framing: (configured?.framing ?? 'ndjson') as SerialFraming,
    sendVerdicts: configured?.sendVerdicts ?? false,
  };
}

async function openOne(name: TransportName, o: OpenTransportsOptions): Promise<RobotTransport> {
  const log = o.logger;
  switch (name) {
    case 'mqtt': {
      if (!o.mqtt) throw new UsageError('--transport mqtt: no broker (--mqtt) given');
      return MqttTransport.connect({
        ...o.mqtt,
        robotId: o.profile.robotId,
        onStateChange: (state, detail) =>
          log[state === 'connected' ? 'info' : 'warn']({ state, detail }, 'mqtt'),
        onRetainedDropped: (topic) => logRetainedDropped(log, topic),
      });
    }
    case 'serial': {
      const settings = serialSettings(o.profile, o.serial);
      const t = await SerialTransport.open({
        ...settings,
        robotId: o.profile.robotId,
        onStateChange: (state, detail) =>
          log[state === 'connected' ? 'info' : 'warn']({ state, detail }, 'serial'),
      });
      log.info({ ...settings }, 'serial line open');
      return t;
    }
    case 'ros2': {
      const ros = o.ros ?? {};
      const t = await Ros2Transport.start({
        profile: o.profile,
        ...(ros.overrides !== undefined ? { overrides: ros.overrides } : {}),
        ...(ros.rclnodejs !== undefined ? { rclnodejs: ros.rclnodejs } : {}),
        ...(ros.nodeName !== undefined ? { nodeName: ros.nodeName } : {}),
        ...(ros.namespace !== undefined ? { namespace: ros.namespace } : {}),
        ...(ros.checkStamps !== undefined ? { checkStamps: ros.checkStamps } : {}),
        onSkip: (binding, reason, detail) => log.debug({ topic: binding.topic, reason, detail }, 'ros2 skip'),
      });
      log.info({ parameters: t.parameters }, 'ROS 2 node started');
      return t;
    }
  }
}

/** Opens every chosen transport (closing those already open when one fails) and combines them. */
export async function openEdgeTransports(options: OpenTransportsOptions): Promise<RobotTransport> {
  const commandsOn = commandTransport(options);
  const opened: NamedTransport[] = [];
  try {
    for (const name of options.transports) {
      opened.push({ name, transport: await openOne(name, options) });
    }
  } catch (err) {
    await Promise.allSettled(opened.map((t) => t.transport.close()));
    throw err;
  }
  if (opened.length === 1) return opened[0]!.transport;
  options.logger.info(
    { transports: opened.map((t) => t.name), commandsOn },
    'transports combined: inputs from all, commands on one',
  );
  return new CombinedTransport(opened, commandsOn);
}
