/** A profile's `sources[].publisher` bindings, added to the broker users table (profile-publishers.ts). */
import t from 'tap';
import { validateBrokerIdentities } from '../../src/broker/broker-users.js';
import { mosquittoAcl } from '../../src/broker/mosquitto-acl.js';
import { withProfilePublishers } from '../../src/broker/profile-publishers.js';

const users = [
  { username: 'edge-r1', role: 'edge', robotId: 'r1' },
  { username: 'lidar-r1', role: 'sensor', robotId: 'r1', sources: ['proximity-rear'] },
  { username: 'robot-r1', role: 'robot', robotId: 'r1' },
  { username: 'planner-r1', role: 'planner', robotId: 'r1' },
  { username: 'robot-r2', role: 'robot', robotId: 'r2' },
];
const source = (name: string, publisher: string) => ({
  name,
  kind: 'proximity' as const,
  maxAgeMs: 100,
  publisher,
});

t.test('a binding closes the source to every other account of the robot, in the ACL too', async (t) => {
  const bound = withProfilePublishers(users, {
    robotId: 'r1',
    sources: [source('proximity-front', 'lidar-r1')],
  });
  t.same(bound[1]?.sources, ['proximity-rear', 'proximity-front']);
  t.same(users[1]?.sources, ['proximity-rear'], 'the input table is not changed');
  const acl = mosquittoAcl(validateBrokerIdentities(bound));
  t.match(acl, /user lidar-r1\n(?:.*\n)*?topic write pentagate\/v1\/r1\/telemetry\/proximity-front/);
  // robot-r1 would publish any unbound source; the bound one must be denied to it.
  const robotSection = acl.split(/\n(?=user )/).find((s) => s.startsWith('user robot-r1')) ?? '';
  t.notMatch(robotSection, /topic write pentagate\/v1\/r1\/telemetry\/proximity-front\b/);
  t.same(withProfilePublishers(users, { robotId: 'r1', sources: [] }), users, 'no binding, no change');
});

t.test('a binding that cannot hold is refused with the reason', async (t) => {
  const check = (publisher: string, message: RegExp) =>
    t.throws(
      () => withProfilePublishers(users, { robotId: 'r1', sources: [source('proximity-rear', publisher)] }),
      {
        code: 'BROKER_CONFIG_INVALID',
        message,
      },
    );
  check('nobody', /names publisher "nobody", which is not in the broker users/);
  check('robot-r2', /which is not an account of robot r1/);
  check('planner-r1', /whose role planner publishes no telemetry/);
  check('robot-r1', /but the broker users bind it to "lidar-r1"/);
});
