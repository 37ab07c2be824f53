/**
 * The end-to-end scenario over a real broker: telemetry and an intent go in over MQTT, a
 * signed command comes out that the shared acceptance function accepts; a human steps inside the radius
 * during the motion and a signed STOP comes out; garbage gets `rejected-input` verdicts and the node
 * keeps working. Run against the embedded aedes broker and against the machine's Mosquitto.
 */
import { Writable } from 'node:stream';
import type t from 'tap';
import { acceptMotorCommand, type ControllerState } from '@pentagate/crypto';
import { type MotorCommand, robotTopics, toBase64Url, toHex, type VerdictEvent } from '@pentagate/protocol';
import { createEdgeLogger } from '../../../src/observability/logger.js';
import { startEdgeNode } from '../../../src/node/start-edge-node.js';
import { armFixture } from './arm-fixture.js';
import { connectClient, MessageInbox, type TestClientOptions } from './mqtt-clients.js';

/** A tap subtest (the type tap hands to `t.test` callbacks). */
export type ScenarioTest = Parameters<Parameters<typeof t.test>[0]>[0];

export interface ScenarioBroker {
  url: string;
  robotId: string;
  edge: TestClientOptions;
  robot: TestClientOptions;
  /** The operator account consent goes through (consent is an operator's leaf); defaults to `robot`. */
  operator?: TestClientOptions;
  stateDir: string;
}

export async function runEndToEndScenario(t: ScenarioTest, broker: ScenarioBroker): Promise<void> {
  const fixture = armFixture({ robotId: broker.robotId });
  const topics = robotTopics(broker.robotId);
  const logLines: string[] = [];
  const logger = createEdgeLogger({
    destination: new Writable({
      write(chunk, _enc, cb) {
        logLines.push(String(chunk));
        cb();
      },
    }),
  });
  const edge = await startEdgeNode({
    robotId: broker.robotId,
    gate: fixture.makeGate(),
    mqtt: {
      url: broker.url,
      ...(broker.edge.username !== undefined ? { username: broker.edge.username } : {}),
      ...(broker.edge.password !== undefined ? { password: broker.edge.password } : {}),
    },
    stateDir: broker.stateDir,
    logger,
    metricsPort: 0,
  });
  let stopped = false;
  t.teardown(() => (stopped ? undefined : edge.stop()));

  const robot = await connectClient(broker.url, broker.robot);
  t.teardown(() => robot.endAsync(true));
  const inbox = new MessageInbox(robot);
  await robot.subscribeAsync([topics.cmd, topics.verdict], { qos: 1 });
  const operator = broker.operator ? await connectClient(broker.url, broker.operator) : robot;
  t.teardown(() => (operator === robot ? undefined : operator.endAsync(true)));
  const publish = (topic: string, body: unknown) =>
    (topic === topics.consent ? operator : robot).publishAsync(
      topic,
      typeof body === 'string' ? body : JSON.stringify(body),
      { qos: 1 },
    );
  const keys = new Map([[fixture.hmacKey.kid, fixture.hmacKey.key]]);
  const verdictFor = (intentId: string) =>
    inbox.next<VerdictEvent>(
      topics.verdict,
      (v) => v.intentId === intentId && v.outcome !== 'rejected-input',
    );

  // 1. Fresh telemetry, then an intent → a signed command the controller accepts.
  for (const frame of fixture.passingFrames(1, Date.now()))
    await publish(topics.telemetry(frame.source), frame);
  await publish(topics.intent, fixture.smallMove('move-1'));
  const command = await inbox.next<MotorCommand>(topics.cmd);
  t.equal(command.intentId, 'move-1');
  t.equal((await verdictFor('move-1')).outcome, 'signed');
  let state: ControllerState = { robotId: broker.robotId, epoch: 0, lastSeq: 0 };
  const accepted = acceptMotorCommand(state, command, { keys, nowMs: Date.now() });
  t.ok(
    accepted.accepted,
    `the controller accepts the command (${accepted.accepted ? 'ok' : accepted.detail})`,
  );
  if (accepted.accepted) state = accepted.state;

  // 2. A human steps inside the radius during the motion → a signed STOP.
  await publish(topics.telemetry('proximity'), fixture.proximityFrame(2, Date.now(), 0.5));
  const stop = await inbox.next<MotorCommand>(topics.cmd);
  t.equal(stop.setpoints.kind, 'stop', 'the next command is a STOP');
  t.ok(stop.epoch > command.epoch, 'the STOP carries a new epoch');
  const stopAccepted = acceptMotorCommand(state, stop, { keys, nowMs: Date.now() });
  t.ok(stopAccepted.accepted, 'the controller accepts the STOP');
  if (stopAccepted.accepted) state = stopAccepted.state;
  const stopVerdict = await inbox.next<VerdictEvent>(topics.verdict, (v) => v.outcome === 'stopped');
  t.match(stopVerdict.violations.join('\n'), /RISK\.HUMAN_IN_RADIUS/);
  t.match(acceptMotorCommand(state, command, { keys, nowMs: Date.now() }), {
    accepted: false,
    reason: 'stale-epoch',
  });

  // 3. Garbage → rejected-input verdicts naming the problem; nothing is signed.
  const rejected = () => inbox.next<VerdictEvent>(topics.verdict, (v) => v.outcome === 'rejected-input');
  await publish(topics.telemetry('proximity'), 'not json {');
  t.match((await rejected()).violations[0], /^INPUT\.MALFORMED: telemetry on .*expected JSON/);
  // a duplicate member name is refused, never read last-wins ("nobody present")
  // (on another source's topic: refusals of one kind on one topic are summarised per window)
  await publish(topics.telemetry('battery'), '{"v":1,"nearestHumanM":0.3,"nearestHumanM":null}');
  t.match((await rejected()).violations[0], /^INPUT\.MALFORMED: .*"nearestHumanM" again/);
  await publish(topics.telemetry('proximity'), { v: 1, kind: 'proximity' });
  t.match((await rejected()).violations[0], /^INPUT\.TELEMETRY_/);
  await publish(topics.intent, { v: 1, intentId: 'bad-1', kind: 'joint-trajectory' });
  t.match((await rejected()).violations[0], /^INPUT\.INTENT_INVALID/);
  await publish(topics.consent, '{"payloadType": 7}');
  t.match(
    (await inbox.next<VerdictEvent>(topics.verdict, (v) => v.outcome === 'vetoed')).violations[0],
    /^CONSENT\.INVALID/,
  );

  // 4. The node kept running: the human leaves, fresh telemetry, a new intent is signed again.
  for (const frame of fixture.passingFrames(3, Date.now()))
    await publish(topics.telemetry(frame.source), frame);
  await publish(topics.intent, fixture.smallMove('move-2'));
  const again = await inbox.next<MotorCommand>(topics.cmd, (c) => c.intentId === 'move-2');
  t.ok(acceptMotorCommand(state, again, { keys, nowMs: Date.now() }).accepted, 'a new command is accepted');

  // 5. Every verdict is in the outbox, the metrics saw it all, and the key never reached the log.
  await edge.node.settled();
  t.ok(edge.outbox.count >= 7, `the outbox holds every verdict (${edge.outbox.count})`);
  const metricsText = await (await fetch(`${edge.observability?.url}/metrics`)).text();
  t.match(metricsText, /pentagate_edge_commands_published_total\{kind="stop"\} 1/);
  t.match(metricsText, /pentagate_edge_commands_published_total\{kind="motion"\} 2/);
  t.match(metricsText, /pentagate_edge_rejected_inputs_total\{input="telemetry",reason="MALFORMED"\} 2/);
  const health = await fetch(`${edge.observability?.url}/healthz`);
  t.equal(health.status, 200);
  const log = logLines.join('');
  t.ok(
    !log.includes(toBase64Url(fixture.hmacKey.key)) && !log.includes(toHex(fixture.hmacKey.key)),
    'no key in logs',
  );
  if (broker.edge.password) t.ok(!log.includes(broker.edge.password), 'no password in logs');

  // 6. Graceful shutdown stops the robot and leaves a clean outbox.
  await edge.stop('test over');
  stopped = true;
  const shutdownStop = await inbox.next<MotorCommand>(
    topics.cmd,
    (c) => c.setpoints.kind === 'stop' && c.setpoints.reason === 'test over',
  );
  t.ok(
    acceptMotorCommand(state, shutdownStop, { keys, nowMs: Date.now() }).accepted,
    'shutdown sends a valid STOP',
  );
}
