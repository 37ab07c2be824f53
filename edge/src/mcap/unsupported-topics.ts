/**
 * Topics of a recording whose type no gate reads: said once per topic, in one line naming the topic, the type,
 * why it is skipped and what the user can do. Their messages are not decoded (a camera stream costs nothing, a
 * service event's `---` definition cannot fail).
 *
 * rosbag2 records services as `<service>/_service_event` topics of type `pkg/srv/<Service>_Event` (Iron and later,
 * `ros2 bag record --all-services` / `--services`) and actions under `<action>/_action/…` (Kilted, `--all-actions`):
 * feedback, status and the service events of send_goal, get_result and cancel_goal.
 */
import { INTENT_TYPES, OBSERVED_TYPES, ROS_TYPES } from '../ros/ros-types.js';

/** Every type the replay reads: telemetry, intents, consent and firmware (std_msgs/String), observed types. */
const READ_TYPES: ReadonlySet<string> = new Set(
  [...Object.values(ROS_TYPES), ...INTENT_TYPES, ...Object.keys(OBSERVED_TYPES)].filter(
    (t) => t !== ROS_TYPES.diagnosticArray,
  ),
);

export interface UnsupportedTopic {
  /** Why no gate reads it. */
  why: string;
  /** What the user can do about it. */
  todo: string;
}

/** Whether the replay reads a topic of `type` (normalized `pkg/msg/Type`) at all. */
export function isReadType(type: string): boolean {
  return READ_TYPES.has(type);
}

/** Why a topic of `type` is skipped, or undefined when its type is one the replay reads. */
export function unsupportedTopic(topic: string, type: string): UnsupportedTopic | undefined {
  if (isReadType(type)) return undefined;
  if (/\/_action\//.test(topic) || /\/action\//.test(type)) {
    return {
      why: 'part of an action (goal, result, feedback or status); no gate reads actions',
      todo: 'a trajectory sent as an action goal (FollowJointTrajectory) is not judged here: to gate it, send it on an intent topic (trajectory_msgs/msg/JointTrajectory)',
    };
  }
  if (/\/_service_event$/.test(topic) || /\/srv\/[^/]+_Event$/.test(type)) {
    return {
      why: 'a service event (a recorded service call); no gate reads service calls',
      todo: 'nothing to do',
    };
  }
  return {
    why: `no gate reads ${type}`,
    todo: 'nothing to do, unless it carries joint states, proximity, pose, battery or intents: then publish them as a type the gates read (`edge replay --help` lists them)',
  };
}

/** The one line a skipped topic gets (summary examples, logs): topic, type, why, what to do. */
export function unsupportedTopicLine(topic: string, type: string, u: UnsupportedTopic): string {
  return `${topic} [${type}] skipped: ${u.why}; ${u.todo}`;
}
