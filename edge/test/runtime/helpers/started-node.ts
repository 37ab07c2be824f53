/**
 * An EdgeNode on the arm fixture with a recording transport and an outbox in a fresh directory, started,
 * and stopped with its directory removed when the test ends: what most node tests begin with.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EdgeNode, type EdgeNodeOptions } from '../../../src/node/edge-node.js';
import { EdgeMetrics } from '../../../src/observability/edge-metrics.js';
import { createEdgeLogger } from '../../../src/observability/logger.js';
import { AuditOutbox } from '../../../src/outbox/audit-outbox.js';
import { type ArmFixture, armFixture } from './arm-fixture.js';
import { RecordingTransport } from './recording-transport.js';

type NodeSettings = Pick<
  EdgeNodeOptions,
  'gate' | 'consentCheckPeriodMs' | 'monitorPeriodMs' | 'refusalWindowMs' | 'clock'
>;

export interface StartedNode<Transport extends RecordingTransport> {
  node: EdgeNode;
  transport: Transport;
  outbox: AuditOutbox;
  fixture: ArmFixture;
  dir: string;
  /** the outbox file */
  path: string;
}

/** A fresh outbox file in its own directory, closed and removed when the test ends. */
export async function outboxIn(t: {
  teardown(fn: () => unknown): void;
}): Promise<{ outbox: AuditOutbox; dir: string; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-node-'));
  const path = join(dir, 'outbox.jsonl');
  const outbox = await AuditOutbox.open(path);
  t.teardown(async () => {
    await outbox.close();
    await rm(dir, { recursive: true, force: true });
  });
  return { outbox, dir, path };
}

export async function startedNode<Transport extends RecordingTransport = RecordingTransport>(
  t: { teardown(fn: () => unknown): void },
  options: Partial<NodeSettings> & { fixture?: ArmFixture; transport?: Transport } = {},
): Promise<StartedNode<Transport>> {
  const { fixture = armFixture(), transport, ...settings } = options;
  const recording = transport ?? (new RecordingTransport() as Transport);
  const { outbox, dir, path } = await outboxIn(t);
  const node = new EdgeNode({
    robotId: 'r1',
    gate: fixture.makeGate(),
    transport: recording,
    outbox,
    metrics: new EdgeMetrics(),
    logger: createEdgeLogger({ level: 'silent' }),
    ...settings,
  });
  node.start();
  // teardowns run last-in first-out: the node stops before its outbox closes
  t.teardown(() => node.stop());
  return { node, transport: recording, outbox, fixture, dir, path };
}
