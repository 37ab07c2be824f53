/**
 * Who may publish and subscribe where on the embedded broker (DESIGN.md §6: "a robot may publish and
 * subscribe only under its own topics"). Pure functions over MQTT topic names and filters, so the
 * rules are tested without a socket and the broker hooks stay one line each.
 *
 * Topic layout: `pentagate/v1/<robotId>/<leaf…>`; `cmd` and `verdict` are the edge's outputs.
 */
import { conforms, RobotIdSchema, TOPIC_ROOT } from '@pentagate/protocol';

export type BrokerRole = 'edge' | 'robot' | 'operator' | 'simulator';

export interface BrokerIdentity {
  username: string;
  role: BrokerRole;
  /** The one robot this identity acts for. Required for every role but `operator`. */
  robotId?: string;
}

const ROOT = TOPIC_ROOT.split('/');
/** Leaves only the edge may publish: a signed command or a verdict from anyone else is a forgery. */
const EDGE_ONLY_LEAVES = new Set(['cmd', 'verdict']);

/** A robot id usable as one topic level: no separators or wildcards ([MQTT-4.7.1-1], [MQTT-4.7.1-2]). */
export function isTopicSafeRobotId(robotId: string): boolean {
  return conforms(RobotIdSchema, robotId);
}

/** The robot level a topic or filter names under `pentagate/v1/`, or undefined when outside the tree. */
function robotLevel(levels: readonly string[]): string | undefined {
  if (levels.length < ROOT.length + 1 || ROOT.some((level, i) => levels[i] !== level)) return undefined;
  return levels[ROOT.length];
}

function isUnboundOperator(identity: BrokerIdentity): boolean {
  return identity.role === 'operator' && identity.robotId === undefined;
}

function robotAllowed(identity: BrokerIdentity, robot: string): boolean {
  // An operator bound to no robot acts for every robot; everyone else only for their own.
  if (isUnboundOperator(identity)) return true;
  return robot === identity.robotId;
}

/**
 * May `identity` publish to `topic`? Topic names in PUBLISH never hold wildcards ([MQTT-3.3.2-2]);
 * aedes refuses those before this runs, and we refuse them again so the rule stands alone.
 */
export function mayPublish(identity: BrokerIdentity, topic: string, retain = false): boolean {
  if (topic.includes('+') || topic.includes('#')) return false;
  const levels = topic.split('/');
  const robot = robotLevel(levels);
  if (robot === undefined || !robotAllowed(identity, robot)) return false;
  const leaf = levels[ROOT.length + 1];
  if (leaf === undefined || leaf === '') return false;
  if (EDGE_ONLY_LEAVES.has(leaf)) {
    // A retained command would be replayed to every future subscriber ([MQTT-3.3.1-6]); commands
    // and verdicts are events, never state, so even the edge may not retain them.
    return identity.role === 'edge' && !retain;
  }
  return true;
}

/**
 * May `identity` subscribe with `filter`? The robot level must be literal for robot-bound identities:
 * `pentagate/v1/+/cmd` or `#` would match other robots' topics ([MQTT-4.7.1-2], [MQTT-4.7.1-3]).
 * `$SYS/…` is the broker's own tree ([MQTT-4.7.2-1]) and stays closed to every client.
 */
export function maySubscribe(identity: BrokerIdentity, filter: string): boolean {
  const levels = filter.split('/');
  const robot = robotLevel(levels);
  if (robot === undefined) {
    // `pentagate/#` or `#` reach every robot: only an unbound operator may watch everything.
    return isUnboundOperator(identity) && (filter === 'pentagate/#' || filter === 'pentagate/v1/#');
  }
  // '#' is only valid as the last level ([MQTT-4.7.1-2]); aedes refuses other placements first.
  if (robot === '#') return isUnboundOperator(identity) && levels.length === ROOT.length + 1;
  if (robot === '+') return isUnboundOperator(identity);
  return robotAllowed(identity, robot);
}
