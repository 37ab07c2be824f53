/**
 * An EdgeNode on the arm fixture, started, and stopped when the test ends: what most node tests begin with. Its
 * transport is a recording one unless the test brings a real one (serial line, ROS 2, MQTT); its outbox is in a
 * fresh directory, removed at the end, unless the test brings its own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EdgeNode, type EdgeNodeOptions } from '../../../src/node/edge-node.js';
import { EdgeMetrics } from '../../../src/observability/edge-metrics.js';
import type { RobotTransport } from '../../../src/transport/robot-transport.js';
import { createEdgeLogger } from '../../../src/observability/logger.js';
import { AuditOutbox } from '../../../src/outbox/audit-outbox.js';
import { type ArmFixture, armFixture } from './arm-fixture.js';
import { RecordingTransport } from './recording-transport.js';

type NodeSettings = Pick<
  EdgeNodeOptions,
  'gate' | 'consentCheckPeriodMs' | 'monitorPeriodMs' | 'refusalWindowMs' | 'clock'
>;

export interface StartedNode<Transport extends RobotTransport> {
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

export async function startedNode<Transport extends RobotTransport = RecordingTransport>(
  t: { teardown(fn: () => unknown): void },
  options: Partial<NodeSettings> & { fixture?: ArmFixture; transport?: Transport; outbox?: AuditOutbox } = {},
): Promise<StartedNode<Transport>> {
  const { fixture = armFixture(), transport, outbox: given, ...settings } = options;
  const used = transport ?? (new RecordingTransport() as unknown as Transport);
  const { outbox, dir, path } = given
    ? { outbox: given, dir: dirname(given.path), path: given.path }
    : await outboxIn(t);
  const node = new EdgeNode({
    robotId: fixture.robotId,
    gate: fixture.makeGate(),
    transport: used,
    outbox,
    metrics: new EdgeMetrics(),
    logger: createEdgeLogger({ level: 'silent' }),
    ...settings,
  });
  node.start();
  // teardowns run last-in first-out: the node stops before its outbox closes
  t.teardown(() => node.stop());
  return { node, transport: used, outbox, fixture, dir, path };
}
