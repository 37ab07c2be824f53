/**
 * Every example profile must run as shipped: its `topics.ros2` roles all bind (a role that names no source,
 * such as a bare `proximity` on a robot with `proximity-front` and `proximity-rear`, makes the ROS 2
 * transport refuse to start), and the transport starts against the rclnodejs test double, subscribing to each
 * input role and publishing signed commands on the cmd topic.
 */
import { readdirSync } from 'node:fs';
import { loadRobotProfile } from '@pentagate/edge';
import t from 'tap';
import { rosBindingsFromProfile } from '../../src/ros/ros-bindings.js';
import { Ros2Transport } from '../../src/ros/ros2-transport.js';
import { profilesDir } from '../trap/fixtures.js';
import { FakeRclnodejs } from '../transports/helpers/fake-rclnodejs.js';

const examples = readdirSync(profilesDir).filter((f) => /\.ya?ml$/.test(f));

t.test('there are example profiles to check', async (t) => {
  t.ok(examples.length >= 2, `found ${examples.join(', ')}`);
});

for (const file of examples) {
  t.test(`${file} starts the ROS 2 transport with every role bound`, async (t) => {
    const profile = loadRobotProfile(`${profilesDir}${file}`);
    const roles = profile.topics?.ros2 ?? {};
    const rcl = new FakeRclnodejs();
    const transport = await Ros2Transport.start({ profile, rclnodejs: rcl });
    t.teardown(() => transport.close());
    const inputs = Object.entries(roles).filter(
      ([role]) => !['cmd', 'verdict', 'diagnostics'].includes(role),
    );
    t.ok(inputs.length > 0, 'the profile names input topics');
    for (const [role, spec] of inputs) {
      t.ok(
        rcl.subscriptions.some((s) => s.topic === spec.name),
        `role ${role} is subscribed on ${spec.name}`,
      );
    }
    t.ok(
      rcl.publishers.some((p) => p.topic === roles.cmd?.name),
      `signed commands go out on ${roles.cmd?.name}`,
    );
    // Every proximity source is fed by a role: RISK would otherwise see it as stale and never let the robot move.
    const fed = new Set(
      rosBindingsFromProfile(profile).inputs.flatMap((b) =>
        b.target.kind === 'telemetry' ? [b.target.source] : [],
      ),
    );
    for (const s of profile.sources.filter((x) => x.kind === 'proximity')) {
      t.ok(fed.has(s.name), `proximity source ${s.name} is fed by a ROS 2 role`);
    }
  });
}
