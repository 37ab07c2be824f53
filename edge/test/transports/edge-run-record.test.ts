import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { McapIndexedReader, TempBuffer } from '@mcap/core';
import { writeHmacKeyFile } from '@pentagate/crypto';
import { type MotorCommand, robotTopics } from '@pentagate/protocol';
import t from 'tap';
import { startEdgeRun } from '../../src/cli/edge-run.js';
import { edgeRunOptions } from '../../src/cli/edge-run-command.js';
import { RECORDED_TOPICS } from '../../src/mcap/verdict-recorder.js';
import { createEdgeLogger } from '../../src/observability/logger.js';
import { edgeRunFiles } from '../runtime/helpers/edge-run-files.js';
import { armFixture } from '../runtime/helpers/arm-fixture.js';
import { MessageInbox, connectClient } from '../runtime/helpers/mqtt-clients.js';

t.test('edge run --record writes what the running edge decided to MCAP', async (t) => {
  const dir = t.testdir();
  const { fixture, profile, hmacKey, firmware, users } = await edgeRunFiles(dir);
  const record = join(dir, 'run.mcap');
  const options = await edgeRunOptions({
    options: {
      profile,
      'hmac-key': hmacKey,
      mqtt: 'embedded:0',
      'broker-users': users,
      'state-dir': join(dir, 'state'),
      firmware: [firmware],
      record,
      'log-level': 'info',
    },
    positionals: [],
  });
  t.equal(options.recordPath, record);
  const started = await startEdgeRun({
    ...options,
    logger: createEdgeLogger({ destination: new Writable({ write: (_c, _e, cb) => cb() }) }),
  });
  const robot = await connectClient(started.broker?.url ?? '', {
    username: 'robot-r1',
    password: 'robot-pw',
  });
  t.teardown(() => robot.endAsync(true));
  const topics = robotTopics('r1');
  const inbox = new MessageInbox(robot);
  await robot.subscribeAsync(topics.cmd, { qos: 1 });
  for (const frame of fixture.passingFrames(1, Date.now())) {
    await robot.publishAsync(topics.telemetry(frame.source), JSON.stringify(frame), { qos: 1 });
  }
  await robot.publishAsync(topics.intent, JSON.stringify(fixture.smallMove('recorded-1')), { qos: 1 });
  const command = await inbox.next<MotorCommand>(topics.cmd);
  t.equal(command.intentId, 'recorded-1');
  await started.stop('test over');

  const reader = await McapIndexedReader.Initialize({ readable: new TempBuffer(await readFile(record)) });
  const byTopic = new Map<string, number>();
  const commands: MotorCommand[] = [];
  for await (const m of reader.readMessages()) {
    const topic = reader.channelsById.get(m.channelId)!.topic;
    byTopic.set(topic, (byTopic.get(topic) ?? 0) + 1);
    if (topic === RECORDED_TOPICS.command) commands.push(JSON.parse(new TextDecoder().decode(m.data)));
  }
  t.equal(byTopic.get(RECORDED_TOPICS.input), fixture.passingFrames(1, 0).length + 1);
  t.ok((byTopic.get(RECORDED_TOPICS.verdict) ?? 0) >= 1);
  t.equal(byTopic.get(RECORDED_TOPICS.evidence), byTopic.get(RECORDED_TOPICS.verdict));
  t.same(
    commands.map((c) => c.setpoints.kind),
    ['joint', 'stop'],
    'the motion and the shutdown STOP',
  );
  t.same(commands[0], command, 'the recorded command is the one on the wire');
});

t.test('edge run --record refuses an existing file before anything starts', async (t) => {
  const dir = t.testdir({ 'taken.mcap': 'x' });
  const fixture = armFixture();
  const profile = join(dir, 'profile.json');
  await writeFile(profile, JSON.stringify(fixture.profile));
  const hmacKey = join(dir, 'cmd.jwk');
  await writeHmacKeyFile(hmacKey, fixture.hmacKey.key);
  await t.rejects(
    startEdgeRun({
      profilePath: profile,
      hmacKeyPath: hmacKey,
      mqtt: { kind: 'embedded', port: 0 },
      stateDir: join(dir, 'state'),
      firmwareManifests: [],
      calibrationCertificates: [],
      recordPath: join(dir, 'taken.mcap'),
      logger: createEdgeLogger({ destination: new Writable({ write: (_c, _e, cb) => cb() }) }),
    }),
    { code: 'MCAP_WRITE_FAILED', message: /EEXIST/ },
  );
});
