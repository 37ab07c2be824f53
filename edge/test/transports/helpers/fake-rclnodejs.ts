/**
 * A test double of the rclnodejs surface the ROS 2 transport uses (edge/src/ros/rclnodejs-surface.ts), with the
 * same names, argument orders, QoS enums and profile names as rclnodejs' lib/qos.js and lib/node.js. Tests
 * deliver messages into a subscription by topic and read what was published.
 */
import type {
  RclEntityOptions,
  RclNode,
  RclParameter,
  RclParameterDescriptor,
  RclPublisher,
  Rclnodejs,
} from '../../../src/ros/rclnodejs-surface.js';

/** rcl_interfaces/msg/ParameterType. */
const FakeParameterType = {
  PARAMETER_NOT_SET: 0,
  PARAMETER_BOOL: 1,
  PARAMETER_INTEGER: 2,
  PARAMETER_DOUBLE: 3,
  PARAMETER_STRING: 4,
};

class FakeParameter implements RclParameter {
  constructor(
    readonly name: string,
    readonly type: number,
    readonly value: unknown,
  ) {}
}

class FakeParameterDescriptor implements RclParameterDescriptor {
  constructor(
    public name: string,
    public type: number,
    public description = '',
    public readOnly = false,
  ) {}
}

class FakeQoS {
  static readonly HistoryPolicy = {
    RMW_QOS_POLICY_HISTORY_SYSTEM_DEFAULT: 0,
    RMW_QOS_POLICY_HISTORY_KEEP_LAST: 1,
    RMW_QOS_POLICY_HISTORY_KEEP_ALL: 2,
  };
  static readonly ReliabilityPolicy = {
    RMW_QOS_POLICY_RELIABILITY_SYSTEM_DEFAULT: 0,
    RMW_QOS_POLICY_RELIABILITY_RELIABLE: 1,
    RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT: 2,
  };
  static readonly DurabilityPolicy = {
    RMW_QOS_POLICY_DURABILITY_SYSTEM_DEFAULT: 0,
    RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL: 1,
    RMW_QOS_POLICY_DURABILITY_VOLATILE: 2,
  };
  static readonly profileSensorData = 'qos_profile_sensor_data';
  constructor(
    public history = 0,
    public depth = 0,
    public reliability = 0,
    public durability = 0,
  ) {}
}

export interface FakeSubscription {
  typeClass: string;
  topic: string;
  options: RclEntityOptions;
  callback: (message: unknown) => void;
}

export interface FakePublisher extends RclPublisher {
  typeClass: string;
  topic: string;
  options: RclEntityOptions | undefined;
  published: unknown[];
}

export class FakeRclnodejs implements Rclnodejs {
  readonly QoS = FakeQoS;
  readonly Parameter = FakeParameter;
  readonly ParameterDescriptor = FakeParameterDescriptor;
  readonly ParameterType = FakeParameterType;
  /** Declared parameters by node name, as `ros2 param dump` would show them. */
  readonly parameters = new Map<
    string,
    Map<string, { parameter: RclParameter; descriptor?: RclParameterDescriptor }>
  >();
  /** Launch overrides (`--ros-args -p name:=value`) applied when a parameter is declared. */
  readonly #overrides: Readonly<Record<string, unknown>>;

  constructor(overrides: Readonly<Record<string, unknown>> = {}) {
    this.#overrides = overrides;
  }
  initialized = false;
  shutDown = false;
  spun: RclNode[] = [];
  readonly nodes: { name: string; namespace: string | undefined; destroyed: boolean }[] = [];
  readonly subscriptions: FakeSubscription[] = [];
  readonly publishers: FakePublisher[] = [];

  async init(): Promise<void> {
    if (this.initialized) throw new Error('rclnodejs: context already initialized');
    this.initialized = true;
  }

  createNode(name: string, namespace?: string): RclNode {
    if (!this.initialized) throw new Error('rclnodejs: call init() first');
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`rclnodejs: invalid node name ${name}`);
    const record = { name, namespace, destroyed: false };
    this.nodes.push(record);
    const declared = new Map<string, { parameter: RclParameter; descriptor?: RclParameterDescriptor }>();
    this.parameters.set(name, declared);
    return {
      declareParameter: (parameter, descriptor) => {
        if (declared.has(parameter.name))
          throw new Error(`rclnodejs: parameter ${parameter.name} already declared`);
        const value = Object.hasOwn(this.#overrides, parameter.name)
          ? this.#overrides[parameter.name]
          : parameter.value;
        const effective = new FakeParameter(parameter.name, parameter.type, value);
        declared.set(parameter.name, { parameter: effective, ...(descriptor ? { descriptor } : {}) });
        return effective;
      },
      getParameter: (pname) => {
        const p = declared.get(pname);
        if (!p) throw new Error(`rclnodejs: parameter ${pname} not declared`);
        return p.parameter;
      },
      createSubscription: (typeClass, topic, options, callback) => {
        const sub = { typeClass, topic, options, callback };
        this.subscriptions.push(sub);
        return sub;
      },
      createPublisher: (typeClass, topic, options) => {
        const pub: FakePublisher = {
          typeClass,
          topic,
          options,
          published: [],
          publish(message) {
            if (record.destroyed) throw new Error('rclnodejs: node destroyed');
            pub.published.push(structuredClone(message));
          },
        };
        this.publishers.push(pub);
        return pub;
      },
      destroy: () => {
        record.destroyed = true;
      },
    };
  }

  spin(node: RclNode): void {
    this.spun.push(node);
  }

  shutdown(): void {
    this.shutDown = true;
  }

  /** Delivers a message to every subscription of `topic`, as the executor would. */
  deliver(topic: string, message: unknown): void {
    const subs = this.subscriptions.filter((s) => s.topic === topic);
    if (subs.length === 0) throw new Error(`no subscription on ${topic}`);
    for (const s of subs) s.callback(message);
  }

  publisher(topic: string): FakePublisher {
    const p = this.publishers.find((x) => x.topic === topic);
    if (!p) throw new Error(`no publisher on ${topic}`);
    return p;
  }
}
