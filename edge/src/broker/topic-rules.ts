/**
 * Who may publish and subscribe where (ARCHITECTURE.md §6). Rights are granted by role and by leaf, nothing
 * implied: ROLE_RIGHTS below is the one table the embedded broker enforces and the Mosquitto ACL
 * (mosquitto-acl.ts) is written from, so the two cannot drift.
 *
 * Topic layout: `pentagate/v1/<robotId>/<leaf>` with leaf `cmd`, `verdict`, `intent`, `consent`, or
 * `telemetry/<source>`. A sensor reading decides whether a robot may move, so telemetry is granted per
 * source: an identity publishes only the sources listed in its `sources`, and a source listed by one
 * identity is closed to every other identity of that robot.
 */
import { conforms, RobotIdSchema, SourceNameSchema, TOPIC_ROOT } from '@pentagate/protocol';

export const BROKER_ROLES = [
  'edge',
  'sensor',
  'planner',
  'controller',
  'robot',
  'simulator',
  'operator',
  'watcher',
] as const;
export type BrokerRole = (typeof BROKER_ROLES)[number];

/** The leaves under `pentagate/v1/<robotId>/`; `telemetry` stands for `telemetry/<source>`. */
export const ROBOT_LEAVES = ['cmd', 'verdict', 'intent', 'consent', 'telemetry'] as const;
export type RobotLeaf = (typeof ROBOT_LEAVES)[number];

/**
 * Which telemetry sources a role may publish: `none`; `listed` (only its own `sources`); or
 * `listed-or-unbound` (its own, and every source no identity of the robot lists).
 */
export type TelemetryRight = 'none' | 'listed' | 'listed-or-unbound';

export interface RoleRights {
  /** Leaves this role may publish, besides telemetry. */
  publish: readonly Exclude<RobotLeaf, 'telemetry'>[];
  telemetry: TelemetryRight;
  /** Leaves this role may subscribe to (`telemetry` as `telemetry/+` or one source). */
  subscribe: readonly RobotLeaf[];
  /** May the identity name no robot and then act for every robot? Only roles that cannot move one. */
  mayBeUnbound: boolean;
}

export const ROLE_RIGHTS: Readonly<Record<BrokerRole, RoleRights>> = {
  // The gate: reads every input of its robot, and alone writes signed commands and verdicts.
  edge: {
    publish: ['cmd', 'verdict'],
    telemetry: 'none',
    subscribe: ['intent', 'telemetry', 'consent'],
    mayBeUnbound: false,
  },
  // A sensor node: its own sources' frames, nothing else, and it reads nothing.
  sensor: { publish: [], telemetry: 'listed', subscribe: [], mayBeUnbound: false },
  // The motion planner: intents out, verdicts back.
  planner: { publish: ['intent'], telemetry: 'none', subscribe: ['verdict'], mayBeUnbound: false },
  // The motor controller: signed commands in; its own listed sources (joint states) out.
  controller: { publish: [], telemetry: 'listed', subscribe: ['cmd'], mayBeUnbound: false },
  // One computer that is planner, controller and sensor node at once (and the simulator standing in for
  // one). Sources another identity lists stay closed to it.
  robot: {
    publish: ['intent'],
    telemetry: 'listed-or-unbound',
    subscribe: ['cmd', 'verdict'],
    mayBeUnbound: false,
  },
  simulator: {
    publish: ['intent'],
    telemetry: 'listed-or-unbound',
    subscribe: ['cmd', 'verdict'],
    mayBeUnbound: false,
  },
  // A person's consent tokens (DSSE envelopes the gate verifies again), and the verdicts they answer.
  operator: { publish: ['consent'], telemetry: 'none', subscribe: ['verdict'], mayBeUnbound: true },
  // Dashboards: verdicts only.
  watcher: { publish: [], telemetry: 'none', subscribe: ['verdict'], mayBeUnbound: true },
};

export interface BrokerIdentity {
  username: string;
  role: BrokerRole;
  /** The one robot this identity acts for; absent only for roles with `mayBeUnbound` (every robot). */
  robotId?: string;
  /** Telemetry sources this identity speaks for; each binds the source to this identity alone. */
  sources?: readonly string[];
}

const ROOT = TOPIC_ROOT.split('/');

/** A robot id usable as one topic level: no separators or wildcards ([MQTT-4.7.1-1], [MQTT-4.7.1-2]). */
export function isTopicSafeRobotId(robotId: string): boolean {
  return conforms(RobotIdSchema, robotId);
}

export function isTopicSafeSource(source: string): boolean {
  return conforms(SourceNameSchema, source);
}

/** `pentagate/v1/<robot>/<leaf>[/<source>]` split into its parts, or undefined outside that shape. */
function splitRobotTopic(
  text: string,
): { robot: string; leaf: string; source: string | undefined; extra: boolean } | undefined {
  const levels = text.split('/');
  if (levels.length < ROOT.length + 2 || ROOT.some((level, i) => levels[i] !== level)) return undefined;
  const [robot, leaf, source] = levels.slice(ROOT.length) as [string, string, string | undefined];
  return { robot, leaf, source, extra: levels.length > ROOT.length + 3 };
}

function isLeaf(leaf: string): leaf is RobotLeaf {
  return (ROBOT_LEAVES as readonly string[]).includes(leaf);
}

/** The rules for one user table: who owns which source is a property of the whole table. */
export class TopicPolicy {
  /** robotId → source → the username it is bound to. */
  readonly #sourceOwners = new Map<string, Map<string, string>>();

  constructor(identities: readonly BrokerIdentity[]) {
    for (const identity of identities) {
      if (identity.robotId === undefined) continue;
      const owners = this.#sourceOwners.get(identity.robotId) ?? new Map<string, string>();
      for (const source of identity.sources ?? []) owners.set(source, identity.username);
      this.#sourceOwners.set(identity.robotId, owners);
    }
  }

  /** The identity a source is bound to, if any. */
  sourceOwner(robotId: string, source: string): string | undefined {
    return this.#sourceOwners.get(robotId)?.get(source);
  }

  /** The sources of a robot bound to some identity. */
  boundSources(robotId: string): string[] {
    return [...(this.#sourceOwners.get(robotId)?.keys() ?? [])].sort();
  }

  #robotAllowed(identity: BrokerIdentity, robot: string): boolean {
    if (identity.robotId === undefined) {
      return ROLE_RIGHTS[identity.role].mayBeUnbound && isTopicSafeRobotId(robot);
    }
    return robot === identity.robotId;
  }

  mayPublishTelemetry(identity: BrokerIdentity, robot: string, source: string): boolean {
    const right = ROLE_RIGHTS[identity.role].telemetry;
    if (right === 'none' || !isTopicSafeSource(source)) return false;
    if (identity.sources?.includes(source)) return true;
    return right === 'listed-or-unbound' && this.sourceOwner(robot, source) === undefined;
  }

  /**
   * May `identity` publish to `topic`? Topic names in PUBLISH never hold wildcards ([MQTT-3.3.2-2]);
   * aedes refuses those before this runs, and a wildcard is no robot id or source, so they fail here too.
   */
  mayPublish(identity: BrokerIdentity, topic: string, retain = false): boolean {
    const parts = splitRobotTopic(topic);
    if (!parts || parts.extra || !this.#robotAllowed(identity, parts.robot)) return false;
    // Commands, verdicts, intents and consent are events, never state: a retained one would be replayed
    // to every future subscriber ([MQTT-3.3.1-6]), long after it was meant. Nobody retains anything.
    if (retain) return false;
    if (parts.leaf === 'telemetry') {
      return parts.source !== undefined && this.mayPublishTelemetry(identity, parts.robot, parts.source);
    }
    if (parts.source !== undefined || !isLeaf(parts.leaf) || parts.leaf === 'telemetry') return false;
    return ROLE_RIGHTS[identity.role].publish.includes(parts.leaf);
  }

  /**
   * May `identity` subscribe with `filter`? Only whole topics it may read: the robot level is its own
   * robot (or `+` for an unbound role), the leaf is literal, and `telemetry/+` is the one wildcard left.
   * `#` would reach leaves the role may not read ([MQTT-4.7.1-2]); `$SYS/…` ([MQTT-4.7.2-1]) is refused
   * because it lies outside the tree.
   */
  maySubscribe(identity: BrokerIdentity, filter: string): boolean {
    const parts = splitRobotTopic(filter);
    if (!parts || parts.extra || !isLeaf(parts.leaf)) return false;
    const robotOk =
      parts.robot === '+'
        ? identity.robotId === undefined && ROLE_RIGHTS[identity.role].mayBeUnbound
        : this.#robotAllowed(identity, parts.robot);
    if (!robotOk || !ROLE_RIGHTS[identity.role].subscribe.includes(parts.leaf)) return false;
    if (parts.leaf === 'telemetry') {
      return parts.source !== undefined && (parts.source === '+' || isTopicSafeSource(parts.source));
    }
    return parts.source === undefined;
  }
}
