import { createServer } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import t from 'tap';
import { generateEd25519, trustEntryFor } from '@pentagate/crypto';
import { robotTopics } from '@pentagate/protocol';
import { startEdgeRun } from '../../src/cli/edge-run.js';
import { edgeRunOptions } from '../../src/cli/edge-run-command.js';
import { cli } from './helpers/run-edge-cli.js';
import { startEdgeCli } from './helpers/edge-cli-process.js';
import { createEdgeLogger } from '../../src/observability/logger.js';
import { tempEdgeRunFiles } from './helpers/edge-run-files.js';
import { connectClient, MessageInbox } from './helpers/mqtt-clients.js';

const files = (t: { teardown(fn: () => unknown): void }) => tempEdgeRunFiles(t, 'pentagate-run-');

t.test('edge run serves a robot on the embedded broker and stops it on shutdown', async (t) => {
  const f = await files(t);
  const logLines: string[] = [];
  const options = await edgeRunOptions(f.parsedRunArgs({ 'metrics-port': '0', 'log-level': 'info' }));
  const started = await startEdgeRun({
    ...options,
    logger: createEdgeLogger({
      destination: new Writable({
        write(chunk, _e, cb) {
          logLines.push(String(chunk));
          cb();
        },
      }),
    }),
  });
  let stopped = false;
  t.teardown(() => (stopped ? undefined : started.stop()));
  t.ok(started.broker, 'the embedded broker runs');
  t.same(started.provenanceProblems, [], 'with its firmware manifest, PROVENANCE can pass');
  const robot = await connectClient(started.broker?.url ?? '', {
    username: 'robot-r1',
    password: 'robot-pw',
  });
  t.teardown(() => robot.endAsync(true));
  const topics = robotTopics('r1');
  const inbox = new MessageInbox(robot);
  await robot.subscribeAsync(topics.cmd, { qos: 1 });

  const now = Date.now();
  for (const frame of f.fixture.passingFrames(1, now)) {
    await robot.publishAsync(topics.telemetry(frame.source), JSON.stringify(frame), { qos: 1 });
  }
  await robot.publishAsync(topics.intent, JSON.stringify(f.fixture.smallMove('run-1')), { qos: 1 });
  const command = await inbox.next<{ intentId: string; seq: number }>(topics.cmd);
  t.equal(command.intentId, 'run-1', 'the loaded firmware manifest lets PROVENANCE pass');
  const health = await fetch(`${started.edge.observability?.url}/healthz`);
  t.equal(health.status, 200);

  await started.stop('operator pressed Ctrl-C');
  stopped = true;
  const stop = await inbox.next<{ setpoints: { kind: string; reason?: string }; seq: number }>(topics.cmd);
  t.same(stop.setpoints, { kind: 'stop', reason: 'operator pressed Ctrl-C' });
  t.ok(stop.seq > command.seq);
  const log = logLines.join('');
  t.match(log, /"msg":"edge running"/);
  t.notMatch(log, /robot-pw/);
});

t.test('edge run says loudly on stderr when PROVENANCE cannot pass', async (t) => {
  const f = await files(t);
  const withSensor = join(f.dir, 'calibrated.json');
  const lab = trustEntryFor(generateEd25519().publicKey, 'calibration');
  const trust = f.fixture.profile.trust.document as { keys: unknown[] };
  await writeFile(
    withSensor,
    JSON.stringify({
      ...f.fixture.profile,
      trust: { document: { keys: [...trust.keys, lab] } },
      sensors: [{ id: 'lidar-front', calibrationRequired: true }],
    }),
  );
  const garbled = join(f.dir, 'garbled-fw.json');
  await writeFile(garbled, JSON.stringify({ payloadType: 'x', payload: 'e30', signatures: [] }));
  const options = await edgeRunOptions({
    options: {
      profile: withSensor,
      'hmac-key': f.hmacKey,
      mqtt: 'embedded:0',
      'state-dir': join(f.dir, 'state-prov'),
      firmware: [garbled],
      'log-level': 'silent',
    },
    positionals: [],
  });
  const started = await startEdgeRun(options);
  t.teardown(() => started.stop());
  t.match(started.provenanceProblems, [
    /^firmware manifest #1 refused: /,
    /^no vendor-signed firmware manifest is loaded \(give one with --firmware\)$/,
    /^sensor lidar-front has no calibration certificate valid now \(give one with --calibration\)$/,
  ]);
  await started.stop();
  // The CLI prints it on stderr, one line, before it says it is serving.
  const edge = await startEdgeCli(t, [
    ...['--profile', withSensor, '--hmac-key', f.hmacKey, '--mqtt', 'embedded:0'],
    ...['--state-dir', join(f.dir, 'state-cli'), '--log-level', 'silent'],
  ]);
  t.match(
    edge.stderr(),
    /^pentagate edge run: WARNING: PROVENANCE cannot pass, so every intent will be vetoed: no vendor-signed firmware manifest is loaded .*; sensor lidar-front has no calibration certificate valid now/m,
  );
  t.equal(await edge.stop(), 0);
});

t.test('edge run refuses what it cannot use, before it starts', async (t) => {
  const f = await files(t);
  const base = f.runArgs;
  t.match(await cli([...base, '--mqtt', 'tcp://x:1']), {
    code: 2,
    err: /--mqtt: expected embedded:PORT, mqtt:\/\/host:port/,
  });
  t.match(await cli([...base, '--mqtt', 'mqtt://u:p@host:1883']), {
    code: 2,
    err: /put credentials in --username/,
  });
  t.match(await cli([...base, '--mqtt', 'embedded:99999']), { code: 2, err: /expected a TCP port 0-65535/ });
  t.match(await cli([...base, '--mqtt', 'mqtt://127.0.0.1:1', '--broker-users', f.users]), {
    code: 2,
    err: /--broker-users: only with --mqtt embedded:PORT/,
  });
  t.match(await cli([...base, '--log-level', 'loud']), { code: 2, err: /--log-level: expected one of/ });
  t.match(await cli(['edge', 'run', '--hmac-key', f.hmacKey]), { code: 2, err: /--profile is required/ });

  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
  const address = blocker.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  t.match(await cli([...base, '--mqtt', `embedded:${port}`, '--log-level', 'silent']), {
    code: 2,
    err: new RegExp(`port ${port} is in use: pass --mqtt embedded:PORT with another port`),
  });
});
