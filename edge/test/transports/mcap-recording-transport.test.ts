import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { McapIndexedReader, TempBuffer } from '@mcap/core';
import { robotTopics } from '@pentagate/protocol';
import t from 'tap';
import { McapRecordingTransport } from '../../src/mcap/mcap-recording-transport.js';
import { RECORDED_TOPICS, VerdictRecorder } from '../../src/mcap/verdict-recorder.js';
import { EdgeNode } from '../../src/node/edge-node.js';
import { EdgeMetrics } from '../../src/observability/edge-metrics.js';
import { createEdgeLogger } from '../../src/observability/logger.js';
import { AuditOutbox } from '../../src/outbox/audit-outbox.js';
import { armFixture } from '../runtime/helpers/arm-fixture.js';
import { RecordingTransport } from '../runtime/helpers/recording-transport.js';

t.test(
  'edge run --record: inputs, verdicts with their evidence, and commands land in MCAP; the wire is unchanged',
  async (t) => {
    const dir = t.testdir();
    const fixture = armFixture({ robotId: 'rec-arm' });
    const topics = robotTopics(fixture.robotId);
    const wire = new RecordingTransport();
    const path = join(dir, 'run.mcap');
    const transport = new McapRecordingTransport(wire, await VerdictRecorder.create(path));
    const node = new EdgeNode({
      robotId: fixture.robotId,
      gate: fixture.makeGate(),
      transport,
      outbox: await AuditOutbox.open(join(dir, 'outbox.jsonl')),
      metrics: new EdgeMetrics(),
      logger: createEdgeLogger({ destination: new Writable({ write: (_c, _e, cb) => cb() }) }),
    });
    node.start();
    for (const f of fixture.passingFrames(1, Date.now())) wire.deliver(topics.telemetry(f.source), f);
    wire.deliver(topics.intent, fixture.smallMove('rec-1'));
    wire.deliver(topics.intent, 'not json {');
    await node.settled();
    t.equal(wire.commands().length, 1, 'the signed command still goes out on the wire');
    await node.stop();
    t.notOk(transport.isConnected());

    const reader = await McapIndexedReader.Initialize({ readable: new TempBuffer(await readFile(path)) });
    const seen = new Map<string, unknown[]>();
    for await (const m of reader.readMessages()) {
      const topic = reader.channelsById.get(m.channelId)!.topic;
      if (topic === RECORDED_TOPICS.diagnostics) continue;
      seen.set(topic, [...(seen.get(topic) ?? []), JSON.parse(new TextDecoder().decode(m.data))]);
    }
    const inputs = seen.get(RECORDED_TOPICS.input) as { topic: string; message: unknown }[];
    t.equal(inputs.length, fixture.passingFrames(1, 0).length + 2);
    t.match(inputs.at(-1), { topic: topics.intent, message: { unparsed: /not JSON/ } });
    const verdicts = seen.get(RECORDED_TOPICS.verdict) as { outcome: string }[];
    t.same(
      verdicts.map((v) => v.outcome).sort(),
      wire
        .verdicts()
        .map((v) => v.outcome)
        .sort(),
      'every verdict the node published',
    );
    const evidence = seen.get(RECORDED_TOPICS.evidence) as {
      outcome: string;
      frames: { source: string }[];
    }[];
    const signed = evidence.find((e) => e.outcome === 'signed')!;
    t.same(
      signed.frames.map((f) => f.source).sort(),
      fixture
        .passingFrames(1, 0)
        .map((f) => f.source)
        .sort(),
    );
    const commands = seen.get(RECORDED_TOPICS.command) as { setpoints: { kind: string } }[];
    t.same(
      commands.map((c) => c.setpoints.kind),
      wire.commands().map((c) => c.setpoints.kind),
      'the shutdown STOP too',
    );
  },
);
