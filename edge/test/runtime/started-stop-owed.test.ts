/**
 * A node starting on a state directory an earlier process used stops the robot (EDGE.STARTED): that process may
 * have died mid-motion, and this one cannot monitor a plan it does not know. It did so only if its link was up
 * at the moment it started; a link that dropped between the transport's connect and the node's start got no
 * STOP at all, ever, and the old motion ran on unmonitored. Now the STOP is owed and sent once the link is up.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { EdgeNode } from '../../src/node/edge-node.js';
import { EdgeMetrics } from '../../src/observability/edge-metrics.js';
import { createEdgeLogger } from '../../src/observability/logger.js';
import { AuditOutbox } from '../../src/outbox/audit-outbox.js';
import { armFixture } from './helpers/arm-fixture.js';
import { RecordingTransport } from './helpers/recording-transport.js';
import { sampleVerdict } from './helpers/verdicts.js';

t.test('an edge restarted while its link is down stops the robot once the link is up', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-started-owed-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const earlier = await AuditOutbox.open(join(dir, 'outbox.jsonl'));
  await earlier.append(sampleVerdict(1)); // an earlier process decided something here
  await earlier.close();

  const transport = new RecordingTransport();
  transport.connected = false;
  const node = new EdgeNode({
    robotId: 'r1',
    gate: armFixture().makeGate(),
    transport,
    outbox: await AuditOutbox.open(join(dir, 'outbox.jsonl')),
    metrics: new EdgeMetrics(),
    logger: createEdgeLogger({ level: 'silent' }),
    monitorPeriodMs: 10,
  });
  node.start();
  t.teardown(() => node.stop());
  await new Promise((r) => setTimeout(r, 50));
  t.same(transport.commands(), [], 'nothing can go out while the link is down');

  transport.connected = true;
  const deadline = Date.now() + 5000;
  while (transport.commands().length === 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 10));
  t.match(
    transport.commands().map((c) => c.setpoints),
    [{ kind: 'stop' }],
    'a signed STOP once the link is up',
  );
  await node.settled();
  t.match(transport.verdicts().at(-1), { outcome: 'stopped', violations: [/^EDGE\.STOP_OWED: /] });
});
