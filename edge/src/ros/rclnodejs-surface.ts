/**
 * The part of rclnodejs (https://github.com/RobotWebTools/rclnodejs) the ROS 2 transport uses, typed here so the
 * edge compiles without rclnodejs installed (it needs a sourced ROS 2 to build) and so tests can hand in a fake
 * of exactly this surface. Names and argument orders follow rclnodejs: `createSubscription(typeClass, topic,
 * options, callback)`, `createPublisher(typeClass, topic, options)`, `QoS(history, depth, reliability,
 * durability)`, `QoS.profileSensorData` (the string 'qos_profile_sensor_data'), enums as in lib/qos.js;
 * parameters as in lib/parameter.js: `new Parameter(name, ParameterType.PARAMETER_BOOL, value)`,
 * `node.declareParameter(parameter, descriptor)` returns the parameter with any launch override applied
 * (`--ros-args -p name:=value`), `node.getParameter(name).value`.
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

/** rcl_interfaces/msg/ParameterType values. */
export interface RclParameterTypes {
  readonly PARAMETER_BOOL: number;
  readonly PARAMETER_INTEGER: number;
  readonly PARAMETER_STRING: number;
}

export interface RclParameter {
  readonly name: string;
  readonly type: number;
  readonly value: unknown;
}

export interface RclParameterDescriptor {
  name: string;
  type: number;
  description?: string;
  readOnly?: boolean;
}

export interface RclNode {
  declareParameter?(parameter: RclParameter, descriptor?: RclParameterDescriptor): RclParameter;
  getParameter?(name: string): RclParameter;
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
  /** Node parameters (rclnodejs ≥ 0.14 exports these at the top level). */
  Parameter?: new (
    name: string,
    type: number,
    value: unknown,
  ) => RclParameter;
  ParameterDescriptor?: new (
    name: string,
    type: number,
    description?: string,
    readOnly?: boolean,
  ) => RclParameterDescriptor;
  ParameterType?: RclParameterTypes;
}
