/**
 * The edge on a robot's ROS 2 graph (rclnodejs). Subscribes to the input roles of the profile's `topics.ros2`
 * (sensor topics, the intent topic, the consent topic), maps every message with the one mapping module
 * (message-mapping.ts) and hands the result to the edge node through TypedInbound, exactly like MQTT input.
 * Publishes signed commands (`cmd`, std_msgs/String JSON — required: commands must reach the controller),
 * verdicts (`verdict`, std_msgs/String JSON) and diagnostics (`diagnostics`, diagnostic_msgs/DiagnosticArray).
 *
 * QoS comes from the profile per role; best-effort, volatile, depth 5 is rclnodejs' sensor-data profile. A
 * reliable subscriber does not match a best-effort publisher in DDS, so sensor roles should say best-effort.
 * Commands must be reliable (a dropped STOP is a safety problem): a best-effort `cmd` role is refused.
 * Diagnostics go to `/diagnostics` (reliable, depth 10) unless the profile names another topic, as every ROS 2
 * node's do, so rqt_robot_monitor and Foxglove's diagnostics panel show the gates. The node declares its
 * parameters (ros2-node-parameters.ts).
 *
 * Messages the mapping skips (non-finite values, stale or future stamps, wrong types) never reach the gates;
 * they are counted by reason (`skipCounts()`) and reported through `onSkip` for the log. A sensor that keeps
 * sending bad data therefore goes stale, and the gates fail closed on stale data.
 */
import type { MotorCommand, RobotProfile, VerdictEvent } from '@pentagate/protocol';
import type { InboundHandler, RobotTransport } from '../transport/robot-transport.js';
import { TransportError } from '../transport/transport-error.js';
import { TypedInbound } from '../transport/typed-inbound.js';
import { type MappingSkipReason, RosMessageMapper } from './message-mapping.js';
import { commandToRosString, verdictToDiagnosticArray, verdictToRosString } from './ros-outputs.js';
import {
  type RosBinding,
  type RosOutput,
  type RosQos,
  type RosRoleOverride,
  RELIABLE_QOS,
  rosBindingsFromProfile,
} from './ros-bindings.js';
import { ROS_TYPES } from './ros-types.js';
import { loadRclnodejs } from './rclnodejs-loader.js';
import { declareEdgeParameters, type EdgeNodeParameters } from './ros2-node-parameters.js';
import type { RclNode, RclPublisher, RclQosOption, Rclnodejs } from './rclnodejs-surface.js';

export interface Ros2TransportOptions {
  profile: RobotProfile;
  overrides?: Readonly<Record<string, RosRoleOverride>>;
  /** The rclnodejs module; default: loaded with loadRclnodejs (only when ROS 2 is sourced). */
  rclnodejs?: Rclnodejs;
  /** Default `pentagate_edge_<robotId>` (characters ROS names do not allow become `_`). */
  nodeName?: string;
  namespace?: string;
  /** The clock the stamps are checked against, Unix ms; must be the edge node's clock (default Date.now). */
  clock?: () => number;
  /** Check header stamps (default true); see RosMessageMapperOptions.checkStamps. */
  checkStamps?: boolean;
  maxFutureSkewMs?: number;
  onSkip?: (binding: RosBinding, reason: MappingSkipReason, detail: string) => void;
}

/** rclnodejs QoS for a profile QoS: the named sensor-data profile when it is exactly that, else explicit. */
export function rclQos(rcl: Rclnodejs, qos: RosQos): RclQosOption {
  if (qos.reliability === 'best-effort' && qos.durability === 'volatile' && qos.depth === 5) {
    return rcl.QoS.profileSensorData;
  }
  const Q = rcl.QoS;
  return new Q(
    Q.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST,
    qos.depth,
    qos.reliability === 'reliable'
      ? Q.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_RELIABLE
      : Q.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT,
    qos.durability === 'transient-local'
      ? Q.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL
      : Q.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_VOLATILE,
  );
}

export class Ros2Transport implements RobotTransport {
  readonly #rcl: Rclnodejs;
  readonly #node: RclNode;
  readonly #inbound: TypedInbound;
  readonly #mapper: RosMessageMapper;
  readonly #clock: () => number;
  readonly #publishers: { cmd: RclPublisher; verdict?: RclPublisher; diagnostics?: RclPublisher };
  readonly #onSkip: Ros2TransportOptions['onSkip'];
  /** The node's parameters in force (launch overrides applied). */
  readonly parameters: EdgeNodeParameters;
  #closed = false;

  private constructor(
    rcl: Rclnodejs,
    node: RclNode,
    inbound: TypedInbound,
    mapper: RosMessageMapper,
    publishers: { cmd: RclPublisher; verdict?: RclPublisher; diagnostics?: RclPublisher },
    options: Ros2TransportOptions,
    parameters: EdgeNodeParameters,
  ) {
    this.parameters = parameters;
    this.#rcl = rcl;
    this.#node = node;
    this.#inbound = inbound;
    this.#mapper = mapper;
    this.#publishers = publishers;
    this.#clock = options.clock ?? Date.now;
    this.#onSkip = options.onSkip;
  }

  /**
   * Binds the profile's roles (throws ROS2_BINDING_INVALID naming a role that cannot be bound), loads rclnodejs
   * (throws ROS2_UNAVAILABLE without ROS 2), creates the node, its subscriptions and publishers, and spins.
   */
  static async start(options: Ros2TransportOptions): Promise<Ros2Transport> {
    const { profile } = options;
    const bindings = rosBindingsFromProfile(profile, options.overrides);
    const cmd = bindings.outputs.find((o) => o.role === 'cmd');
    if (!cmd) {
      throw new TransportError(
        'ROS2_BINDING_INVALID',
        `profile ${profile.robotId}: topics.ros2 has no cmd role; signed commands would not reach the controller`,
      );
    }
    if (cmd.qos.reliability !== 'reliable') {
      throw new TransportError(
        'ROS2_BINDING_INVALID',
        `profile ${profile.robotId}: topics.ros2.cmd must be reliable (got ${cmd.qos.reliability}); a dropped STOP would not be resent`,
      );
    }
    const outputs: RosOutput[] = bindings.outputs.some((o) => o.role === 'diagnostics')
      ? bindings.outputs
      : [
          ...bindings.outputs,
          { role: 'diagnostics', topic: '/diagnostics', type: ROS_TYPES.diagnosticArray, qos: RELIABLE_QOS },
        ];
    const rcl = options.rclnodejs ?? (await loadRclnodejs());
    await rcl.init();
    const node = rcl.createNode(
      options.nodeName ?? `pentagate_edge_${profile.robotId.replace(/[^A-Za-z0-9_]/g, '_')}`,
      options.namespace ?? '',
    );
    const publish = (role: string) => {
      const out = outputs.find((o) => o.role === role);
      return out ? node.createPublisher(out.type, out.topic, { qos: rclQos(rcl, out.qos) }) : undefined;
    };
    const verdict = publish('verdict');
    const diagnostics = publish('diagnostics');
    const publishers = {
      cmd: publish('cmd') as RclPublisher,
      ...(verdict ? { verdict } : {}),
      ...(diagnostics ? { diagnostics } : {}),
    };
    let parameters: EdgeNodeParameters;
    try {
      parameters = declareEdgeParameters(rcl, node, {
        robotId: profile.robotId,
        checkStamps: options.checkStamps ?? true,
        maxFutureSkewMs: options.maxFutureSkewMs ?? 500,
      });
    } catch (err) {
      node.destroy();
      await rcl.shutdown();
      throw err;
    }
    const mapper = new RosMessageMapper({
      robotId: profile.robotId,
      checkStamps: parameters.checkStamps,
      maxFutureSkewMs: parameters.maxFutureSkewMs,
    });
    const transport = new Ros2Transport(
      rcl,
      node,
      new TypedInbound(profile.robotId),
      mapper,
      publishers,
      options,
      parameters,
    );
    for (const b of bindings.inputs) {
      node.createSubscription(b.type, b.topic, { qos: rclQos(rcl, b.qos) }, (message) =>
        transport.#onRosMessage(b, message),
      );
    }
    if (typeof rcl.spin === 'function') rcl.spin(node);
    else node.spin?.();
    return transport;
  }

  #onRosMessage(binding: RosBinding, message: unknown): void {
    if (this.#closed) return;
    const mapped = this.#mapper.map(binding, message, this.#clock());
    switch (mapped.kind) {
      case 'telemetry':
        this.#inbound.telemetry(mapped.frame);
        break;
      case 'intent':
        this.#inbound.intent(mapped.intent);
        break;
      case 'consent':
        this.#inbound.consent(mapped.envelope);
        break;
      default:
        this.#onSkip?.(binding, mapped.reason, mapped.detail);
    }
  }

  /** Messages the mapping skipped, by reason. */
  skipCounts(): Record<MappingSkipReason, number> {
    return this.#mapper.skipCounts();
  }

  onMessage(handler: InboundHandler): void {
    this.#inbound.setHandler(handler);
  }

  #publish(publisher: RclPublisher | undefined, message: unknown): Promise<void> {
    if (this.#closed)
      return Promise.reject(new TransportError('TRANSPORT_CLOSED', 'the ROS 2 transport is closed'));
    try {
      publisher?.publish(message);
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(
        new TransportError('TRANSPORT_CLOSED', `ROS 2 publish failed: ${(err as Error).message}`),
      );
    }
  }

  publishCommand(command: MotorCommand): Promise<void> {
    return this.#publish(this.#publishers.cmd, commandToRosString(command));
  }

  async publishVerdict(verdict: VerdictEvent): Promise<void> {
    await this.#publish(this.#publishers.verdict, verdictToRosString(verdict));
    await this.#publish(this.#publishers.diagnostics, verdictToDiagnosticArray(verdict));
  }

  isConnected(): boolean {
    return !this.#closed;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#node.destroy();
    await this.#rcl.shutdown();
  }
}
