/**
 * The part of rclnodejs (https://github.com/RobotWebTools/rclnodejs) the ROS 2 transport uses, typed here so the
 * edge compiles without rclnodejs installed (it needs a sourced ROS 2 to build) and so tests can hand in a fake
 * of exactly this surface. Names and argument orders follow rclnodejs: `createSubscription(typeClass, topic,
 * options, callback)`, `createPublisher(typeClass, topic, options)`, `QoS(history, depth, reliability,
 * durability)`, `QoS.profileSensorData` (the string 'qos_profile_sensor_data'), enums as in lib/qos.js.
 */

export interface RclQos {
  history: number;
  depth: number;
  reliability: number;
  durability: number;
}

/** rclnodejs accepts a QoS object or a profile name such as `QoS.profileSensorData`. */
export type RclQosOption = RclQos | string;

export interface RclEntityOptions {
  qos?: RclQosOption;
  /** rclnodejs delivers float arrays as typed arrays unless this is false; the mapping accepts both. */
  enableTypedArray?: boolean;
}

export interface RclPublisher {
  publish(message: unknown): void;
}

export type RclSubscription = object;

export interface RclNode {
  createSubscription(
    typeClass: string,
    topic: string,
    options: RclEntityOptions,
    callback: (message: unknown) => void,
  ): RclSubscription;
  createPublisher(typeClass: string, topic: string, options?: RclEntityOptions): RclPublisher;
  destroy(): void;
  /** Newer rclnodejs spins a node itself; older ones use the module's `spin(node)`. */
  spin?(): void;
}

export interface RclQosClass {
  new (history?: number, depth?: number, reliability?: number, durability?: number): RclQos;
  readonly HistoryPolicy: { readonly RMW_QOS_POLICY_HISTORY_KEEP_LAST: number };
  readonly ReliabilityPolicy: {
    readonly RMW_QOS_POLICY_RELIABILITY_RELIABLE: number;
    readonly RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT: number;
  };
  readonly DurabilityPolicy: {
    readonly RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL: number;
    readonly RMW_QOS_POLICY_DURABILITY_VOLATILE: number;
  };
  readonly profileSensorData: string;
}

export interface Rclnodejs {
  init(): Promise<void>;
  createNode(name: string, namespace?: string): RclNode;
  spin?(node: RclNode): void;
  shutdown(): void | Promise<void>;
  QoS: RclQosClass;
}
