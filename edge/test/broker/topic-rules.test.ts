import t from 'tap';
import { type BrokerIdentity, isTopicSafeRobotId, TopicPolicy } from '../../src/broker/topic-rules.js';

const edge: BrokerIdentity = { username: 'edge', role: 'edge', robotId: 'r1' };
const lidar: BrokerIdentity = {
  username: 'lidar',
  role: 'sensor',
  robotId: 'r1',
  sources: ['proximity-front'],
};
const planner: BrokerIdentity = { username: 'planner', role: 'planner', robotId: 'r1' };
const controller: BrokerIdentity = {
  username: 'ctl',
  role: 'controller',
  robotId: 'r1',
  sources: ['joints'],
};
const robot: BrokerIdentity = { username: 'robot', role: 'robot', robotId: 'r1' };
const boundOperator: BrokerIdentity = { username: 'ops1', role: 'operator', robotId: 'r1' };
const operator: BrokerIdentity = { username: 'ops', role: 'operator' };
const watcher: BrokerIdentity = { username: 'watch', role: 'watcher' };
const policy = new TopicPolicy([edge, lidar, planner, controller, robot, boundOperator, operator, watcher]);

t.test('robot ids usable as one topic level', async (t) => {
  t.ok(isTopicSafeRobotId('ur5e-01.cell_3'));
  for (const bad of ['', 'a/b', 'a+b', '#', 'x'.repeat(65), 'ümlaut']) t.notOk(isTopicSafeRobotId(bad), bad);
});

t.test('operators publish consent and nothing else: no telemetry, no intents', async (t) => {
  for (const who of [operator, boundOperator]) {
    t.ok(policy.mayPublish(who, 'pentagate/v1/r1/consent'), `${who.username} consent`);
    for (const leaf of ['telemetry/proximity-front', 'telemetry/anything', 'intent', 'cmd', 'verdict']) {
      t.notOk(policy.mayPublish(who, `pentagate/v1/r1/${leaf}`), `${who.username} on ${leaf}`);
    }
  }
  t.ok(policy.mayPublish(operator, 'pentagate/v1/r9/consent'), 'an unbound operator serves every robot');
  t.notOk(policy.mayPublish(boundOperator, 'pentagate/v1/r2/consent'), 'a bound operator serves one robot');
});

t.test('a telemetry source is published by the identity bound to it alone', async (t) => {
  t.ok(policy.mayPublish(lidar, 'pentagate/v1/r1/telemetry/proximity-front'));
  t.notOk(policy.mayPublish(lidar, 'pentagate/v1/r1/telemetry/joints'), "another sensor's source");
  t.notOk(policy.mayPublish(lidar, 'pentagate/v1/r1/telemetry/imu'), 'a source it does not list');
  t.notOk(policy.mayPublish(lidar, 'pentagate/v1/r1/intent'), 'a sensor plans nothing');
  t.ok(policy.mayPublish(controller, 'pentagate/v1/r1/telemetry/joints'));
  t.notOk(policy.mayPublish(robot, 'pentagate/v1/r1/telemetry/proximity-front'), 'bound to the lidar');
  t.ok(policy.mayPublish(robot, 'pentagate/v1/r1/telemetry/imu'), 'a source nobody is bound to');
  t.equal(policy.sourceOwner('r1', 'proximity-front'), 'lidar');
  t.notOk(policy.mayPublish(robot, 'pentagate/v1/r1/telemetry/a/b'), 'extra levels');
  t.notOk(policy.mayPublish(robot, 'pentagate/v1/r1/telemetry'), 'no source');
});

t.test('only the edge publishes commands and verdicts, and nobody retains', async (t) => {
  t.ok(policy.mayPublish(edge, 'pentagate/v1/r1/cmd'));
  t.ok(policy.mayPublish(edge, 'pentagate/v1/r1/verdict'));
  t.notOk(policy.mayPublish(edge, 'pentagate/v1/r1/intent'));
  t.notOk(policy.mayPublish(edge, 'pentagate/v1/r2/cmd'), 'the edge of r1 cannot command r2');
  for (const who of [lidar, planner, controller, robot, operator, watcher]) {
    t.notOk(policy.mayPublish(who, 'pentagate/v1/r1/cmd'), `${who.username} on cmd`);
    t.notOk(policy.mayPublish(who, 'pentagate/v1/r1/verdict'), `${who.username} on verdict`);
  }
  t.notOk(policy.mayPublish(edge, 'pentagate/v1/r1/cmd', true), 'retained command');
  t.notOk(policy.mayPublish(planner, 'pentagate/v1/r1/intent', true), 'retained intent');
  t.ok(policy.mayPublish(planner, 'pentagate/v1/r1/intent'));
  t.notOk(policy.mayPublish(robot, 'pentagate/v1/r2/intent'), 'another robot');
  t.notOk(policy.mayPublish(robot, 'pentagate/v1/r1/marker'), 'an unknown leaf');
  t.notOk(policy.mayPublish(robot, 'other/tree'), 'outside the tree');
  t.notOk(policy.mayPublish(robot, 'pentagate/v1/r1/+'), 'wildcard in a topic name');
  for (const leaf of ['cmd', 'verdict', 'intent', 'consent', 'telemetry/x']) {
    t.notOk(policy.mayPublish(watcher, `pentagate/v1/r1/${leaf}`), `a watcher publishes nothing (${leaf})`);
  }
});

t.test('subscriptions name whole leaves a role reads', async (t) => {
  t.ok(policy.maySubscribe(edge, 'pentagate/v1/r1/telemetry/+'));
  t.ok(policy.maySubscribe(edge, 'pentagate/v1/r1/intent'));
  t.notOk(policy.maySubscribe(edge, 'pentagate/v1/r1/cmd'));
  t.ok(policy.maySubscribe(controller, 'pentagate/v1/r1/cmd'));
  t.notOk(policy.maySubscribe(controller, 'pentagate/v1/r1/verdict'));
  t.notOk(policy.maySubscribe(lidar, 'pentagate/v1/r1/cmd'), 'a sensor reads nothing');
  t.ok(policy.maySubscribe(robot, 'pentagate/v1/r1/cmd'));
  t.notOk(policy.maySubscribe(robot, 'pentagate/v1/r1/#'), '# reaches leaves it may not read');
  t.notOk(policy.maySubscribe(robot, 'pentagate/v1/r1/telemetry/+'));
  t.notOk(policy.maySubscribe(robot, 'pentagate/v1/+/cmd'));
  t.notOk(policy.maySubscribe(robot, '#'));
  t.notOk(policy.maySubscribe(robot, '$SYS/#'));
  t.notOk(policy.maySubscribe(boundOperator, 'pentagate/v1/+/verdict'));
  t.ok(policy.maySubscribe(operator, 'pentagate/v1/+/verdict'));
  t.ok(policy.maySubscribe(watcher, 'pentagate/v1/r7/verdict'));
  t.notOk(policy.maySubscribe(operator, 'pentagate/v1/+/telemetry/+'), 'operators watch verdicts only');
  t.notOk(policy.maySubscribe(operator, 'pentagate/v1/#'));
  t.notOk(policy.maySubscribe(operator, '#'));
});
