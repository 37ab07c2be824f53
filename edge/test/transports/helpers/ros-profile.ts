/** A robot profile with the ROS 2 roles of a typical arm cell: sensors best-effort, intents and commands reliable. */
import type { RobotProfile } from '@pentagate/protocol';

const reliable = (depth = 10) => ({
  reliability: 'reliable' as const,
  durability: 'volatile' as const,
  depth,
});
export const sensor = { reliability: 'best-effort' as const, durability: 'volatile' as const, depth: 5 };

export function rosProfile(profile: RobotProfile): RobotProfile {
  return {
    ...profile,
    topics: {
      ros2: {
        joints: { name: '/joint_states', qos: sensor },
        proximity: { name: '/scan', qos: sensor },
        battery: { name: '/battery_state', qos: { ...sensor, depth: 1 } },
        firmware: { name: '/controller/firmware', qos: reliable(1) },
        intent: { name: '/pentagate/intent', qos: reliable() },
        consent: { name: '/pentagate/consent', qos: reliable() },
        cmd: { name: '/pentagate/cmd', qos: reliable() },
        verdict: {
          name: '/pentagate/verdict',
          qos: { reliability: 'reliable', durability: 'transient-local', depth: 50 },
        },
        diagnostics: { name: '/diagnostics', qos: reliable() },
      },
    },
  };
}
