/**
 * `edge run --foxglove-port 0`: a real Foxglove WebSocket client (@foxglove/ws-protocol's FoxgloveClient on `ws`)
 * connects to the running edge, sees the channels `--record` writes, subscribes, and receives the verdict of an
 * intent sent over MQTT, the evidence it was decided on, the signed command and the diagnostics (CDR).
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parse as parseMsgDefinition } from '@foxglove/rosmsg';
import { MessageReader } from '@foxglove/rosmsg2-serialization';
import { createRequire } from 'node:module';
import type * as WsProtocol from '@foxglove/ws-protocol';
import type { Channel, MessageData } from '@foxglove/ws-protocol';
import { type MotorCommand, type VerdictEvent, robotTopics } from '@pentagate/protocol';
import t from 'tap';
import { WebSocket } from 'ws';
import { startEdgeRun } from '../../src/cli/edge-run.js';
import { FoxgloveLive } from '../../src/foxglove/foxglove-live.js';
import { edgeRunOptions } from '../../src/cli/edge-run-command.js';
import { RECORDED_TOPICS } from '../../src/mcap/verdict-recorder.js';
import { createEdgeLogger } from '../../src/observability/logger.js';
import { edgeRunFiles } from '../runtime/helpers/edge-run-files.js';
import { MessageInbox, connectClient } from '../runtime/helpers/mqtt-clients.js';

const { FoxgloveClient } = createRequire(import.meta.url)('@foxglove/ws-protocol') as typeof WsProtocol;

t.test('a Foxglove client watches the edge live: verdict, evidence, command, diagnostics', async (t) => {
  const dir = t.testdir();
  const { fixture, profile, hmacKey, firmware, users } = await edgeRunFiles(dir);
  const options = await edgeRunOptions({
    options: {
      profile,
      'hmac-key': hmacKey,
      mqtt: 'embedded:0',
      'broker-users': users,
      'state-dir': join(dir, 'state'),
      firmware: [firmware],
      'foxglove-port': '0',
      'log-level': 'silent',
    },
    positionals: [],
  });
  t.equal(options.foxglovePort, 0);
  const started = await startEdgeRun({
    ...options,
    logger: createEdgeLogger({ destination: new Writable({ write: (_c, _e, cb) => cb() }) }),
  });
  let stopped = false;
  t.teardown(() => (stopped ? undefined : started.stop()));
  t.match(started.foxgloveUrl, /^ws:\/\/127\.0\.0\.1:\d+$/);

  const client = new FoxgloveClient({
    ws: new WebSocket(started.foxgloveUrl ?? '', [FoxgloveClient.SUPPORTED_SUBPROTOCOL]),
  });
  t.teardown(() => client.close());
  const channels = await new Promise<Channel[]>((resolve, reject) => {
    client.on('advertise', resolve);
    client.on('error', reject);
  });
  t.same(
    channels.map((c) => c.topic).sort(),
    Object.values(RECORDED_TOPICS).sort(),
    'the channels --record writes',
  );
  t.match(
    channels.find((c) => c.topic === RECORDED_TOPICS.diagnostics),
    {
      encoding: 'cdr',
      schemaName: 'diagnostic_msgs/msg/DiagnosticArray',
      schemaEncoding: 'ros2msg',
    },
  );
  const byTopic = new Map<string, unknown[]>();
  const topicOf = new Map<number, Channel>();
  for (const c of channels) topicOf.set(client.subscribe(c.id), c);
  const waiters: (() => void)[] = [];
  client.on('message', (m: MessageData) => {
    const c = topicOf.get(m.subscriptionId);
    if (!c) return;
    const bytes = new Uint8Array(m.data.buffer, m.data.byteOffset, m.data.byteLength);
    const value =
      c.encoding === 'json'
        ? JSON.parse(new TextDecoder().decode(bytes))
        : new MessageReader(parseMsgDefinition(c.schema, { ros2: true })).readMessage(bytes);
    byTopic.set(c.topic, [...(byTopic.get(c.topic) ?? []), value]);
    for (const w of waiters.splice(0)) w();
  });
  const until = async (ok: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`not received; got ${[...byTopic.keys()].join(', ')}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 200);
      });
    }
  };
  const robot = await connectClient(started.broker?.url ?? '', {
    username: 'robot-r1',
    password: 'robot-pw',
  });
  t.teardown(() => robot.endAsync(true));
  const topics = robotTopics('r1');
  const inbox = new MessageInbox(robot);
  await robot.subscribeAsync(topics.cmd, { qos: 1 });
  // Telemetry until the first input shows up in Foxglove: the subscriptions have reached the server.
  let seq = 0;
  await until(() => {
    if ((byTopic.get(RECORDED_TOPICS.input) ?? []).length > 0) return true;
    seq += 1;
    for (const frame of fixture.passingFrames(seq, Date.now())) {
      void robot.publishAsync(topics.telemetry(frame.source), JSON.stringify(frame), { qos: 1 });
    }
    return false;
  });
  seq += 1;
  for (const frame of fixture.passingFrames(seq, Date.now())) {
    await robot.publishAsync(topics.telemetry(frame.source), JSON.stringify(frame), { qos: 1 });
  }
  await robot.publishAsync(topics.intent, JSON.stringify(fixture.smallMove('live-1')), { qos: 1 });
  const onWire = await inbox.next<MotorCommand>(topics.cmd);

  await until(() =>
    (byTopic.get(RECORDED_TOPICS.verdict) ?? []).some((v) => (v as VerdictEvent).intentId === 'live-1'),
  );
  const verdict = (byTopic.get(RECORDED_TOPICS.verdict) as VerdictEvent[]).find(
    (v) => v.intentId === 'live-1',
  );
  t.equal(verdict?.outcome, 'signed', 'the verdict arrives in Foxglove');
  await until(
    () => (byTopic.get(RECORDED_TOPICS.command) ?? []).length > 0 && byTopic.has(RECORDED_TOPICS.diagnostics),
  );
  t.same(byTopic.get(RECORDED_TOPICS.command)?.[0], onWire, 'the signed command, as on the wire');
  const evidence = (byTopic.get(RECORDED_TOPICS.evidence) ?? []) as {
    intentId?: string;
    frames: { source: string }[];
  }[];
  t.same(
    evidence
      .find((e) => e.intentId === 'live-1')
      ?.frames.map((f) => f.source)
      .sort(),
    fixture
      .passingFrames(1, 0)
      .map((f) => f.source)
      .sort(),
    'the evidence: the frames the verdict was decided on',
  );
  const diag = byTopic.get(RECORDED_TOPICS.diagnostics)?.[0] as { status: { name: string; level: number }[] };
  t.ok(
    diag.status.some((s) => s.name.endsWith('/RISK')),
    'diagnostics per gate, decoded from CDR',
  );
  t.ok((byTopic.get(RECORDED_TOPICS.input) ?? []).length >= 5, 'inputs');
  stopped = true;
  await started.stop('test over');
});

t.test('a taken --foxglove-port names the option to change, as a taken --metrics-port does', async (t) => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => taken.close(() => resolve())));
  const port = (taken.address() as { port: number }).port;
  await t.rejects(FoxgloveLive.start({ port, robotId: 'r1' }), {
    code: 'FOXGLOVE_LISTEN_FAILED',
    message: `port ${port} is in use: pass --foxglove-port with another port`,
  });
});
