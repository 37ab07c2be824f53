import t from 'tap';
import {
  type BrokerIdentity,
  isTopicSafeRobotId,
  mayPublish,
  maySubscribe,
} from '../../src/broker/topic-rules.js';

const edge: BrokerIdentity = { username: 'edge', role: 'edge', robotId: 'r1' };
const robot: BrokerIdentity = { username: 'robot', role: 'robot', robotId: 'r1' };
const simulator: BrokerIdentity = { username: 'sim', role: 'simulator', robotId: 'r1' };
const boundOperator: BrokerIdentity = { username: 'ops1', role: 'operator', robotId: 'r1' };
const operator: BrokerIdentity = { username: 'ops', role: 'operator' };

t.test('robot ids usable as one topic level', async (t) => {
  t.ok(isTopicSafeRobotId('ur5e-01.cell_3'));
  for (const bad of ['', 'a/b', 'a+b', '#', 'x'.repeat(65), 'ümlaut']) t.notOk(isTopicSafeRobotId(bad), bad);
});

t.test('publish rules', async (t) => {
  t.ok(mayPublish(robot, 'pentagate/v1/r1/intent'));
  t.ok(mayPublish(robot, 'pentagate/v1/r1/telemetry/proximity'));
  t.ok(mayPublish(simulator, 'pentagate/v1/r1/telemetry/joints'));
  t.notOk(mayPublish(robot, 'pentagate/v1/r2/intent'), 'another robot');
  t.notOk(mayPublish(robot, 'pentagate/v1/r1'), 'no leaf');
  t.notOk(mayPublish(robot, 'pentagate/v1/r1/'), 'empty leaf');
  t.notOk(mayPublish(robot, 'other/tree'), 'outside the tree');
  t.notOk(mayPublish(robot, 'pentagate/v1/r1/+'), 'wildcard in a topic name');
  for (const leaf of ['cmd', 'verdict', 'cmd/extra']) {
    t.notOk(mayPublish(robot, `pentagate/v1/r1/${leaf}`), `robot on ${leaf}`);
    t.notOk(mayPublish(operator, `pentagate/v1/r1/${leaf}`), `operator on ${leaf}`);
    t.notOk(mayPublish(simulator, `pentagate/v1/r1/${leaf}`), `simulator on ${leaf}`);
  }
  t.ok(mayPublish(edge, 'pentagate/v1/r1/cmd'));
  t.ok(mayPublish(edge, 'pentagate/v1/r1/verdict'));
  t.notOk(mayPublish(edge, 'pentagate/v1/r1/cmd', true), 'retained command');
  t.notOk(mayPublish(edge, 'pentagate/v1/r2/cmd'), 'the edge of r1 cannot command r2');
  t.ok(mayPublish(operator, 'pentagate/v1/r9/consent'), 'an unbound operator serves every robot');
  t.ok(mayPublish(boundOperator, 'pentagate/v1/r1/consent'));
  t.notOk(mayPublish(boundOperator, 'pentagate/v1/r2/consent'), 'a bound operator serves one robot');
});

t.test('subscribe rules', async (t) => {
  t.ok(maySubscribe(robot, 'pentagate/v1/r1/cmd'));
  t.ok(maySubscribe(robot, 'pentagate/v1/r1/#'));
  t.ok(maySubscribe(edge, 'pentagate/v1/r1/telemetry/+'));
  t.notOk(maySubscribe(robot, 'pentagate/v1/+/cmd'));
  t.notOk(maySubscribe(robot, 'pentagate/v1/#'));
  t.notOk(maySubscribe(robot, 'pentagate/#'));
  t.notOk(maySubscribe(robot, '#'));
  t.notOk(maySubscribe(robot, '$SYS/#'));
  t.notOk(maySubscribe(boundOperator, 'pentagate/v1/+/verdict'));
  t.ok(maySubscribe(operator, 'pentagate/v1/+/verdict'));
  t.ok(maySubscribe(operator, 'pentagate/v1/#'));
  t.notOk(maySubscribe(operator, 'pentagate/v1/#/x'), '# must be last; never a robot id');
  t.notOk(maySubscribe(operator, '#'));
  t.notOk(maySubscribe(operator, '$SYS/#'));
});
