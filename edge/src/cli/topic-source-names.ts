/**
 * Source names for the sensor topics of a recording (`edge profile init`): a topic's last segment
 * (`/joint_states` → `joint_states`), or as many trailing segments as make it unique (`/safety/lidar_front/scan` and
 * `/safety/lidar_rear/scan` → `lidar_front_scan`, `lidar_rear_scan`). Unique after the normalisation a ROS role
 * binds by (case and separators ignored, ros-bindings.ts), so two sources never read as the same role, and never
 * a name already taken (`firmware`).
 */

const segmentsOf = (topic: string) =>
  topic
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/[^A-Za-z0-9._-]/g, '_'));

/** How a role is matched to a source: case and separators ignored (and leading digits, which a role drops). */
const bindingKey = (name: string) =>
  name
    .toLowerCase()
    .replace(/^[^a-z]+/, '')
    .replace(/[^a-z0-9]/g, '');

export function uniqueSourceNames(
  topics: readonly string[],
  taken: readonly string[] = [],
): Map<string, string> {
  const segments = new Map(topics.map((t) => [t, segmentsOf(t)]));
  const names = new Map<string, string>();
  const used = new Set(taken.map(bindingKey));
  const nameAt = (topic: string, depth: number) => {
    const s = segments.get(topic)!;
    return s.length === 0 ? 'source' : s.slice(-Math.min(depth, s.length)).join('_');
  };
  for (const topic of topics) {
    let depth = 1;
    // Deepen while another topic shares the name at this depth, or it is taken.
    const clashes = (name: string) =>
      used.has(bindingKey(name)) ||
      topics.some((other) => other !== topic && bindingKey(nameAt(other, depth)) === bindingKey(name));
    while (depth < (segments.get(topic)?.length ?? 0) && clashes(nameAt(topic, depth))) depth += 1;
    let name = nameAt(topic, depth);
    for (let n = 2; used.has(bindingKey(name)); n += 1) name = `${nameAt(topic, depth)}_${n}`;
    used.add(bindingKey(name));
    names.set(topic, name);
  }
  return names;
}
