/**
 * A concurrent repeat of one idempotencyKey on SQLite with group commit: the first decision is visible
 * to readers as soon as it is committed, but its audit entry is provable only once the batch is synced.
 * A repeat arriving in between waits and gets the first decision with its proof — never a 400 for an
 * inclusion proof beyond the durable log. Over a real socket, with the WAL sync held by the test.
 */
import { fdatasync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { bearer } from '../helpers/cloud-app.js';
import { kernelCloud, ledgerWrite } from './kernel-helpers.js';

t.test('a repeat that sees the first decision before it is durable gets that decision', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pentagate-idem-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // armed: the sync of the batch that commits the next decision is held until the test releases it
  let armedAt: number | undefined;
  const held: (() => void)[] = [];
  const store: SqliteStore = new SqliteStore({
    path: join(dir, 'cloud.db'),
    syncFile: (fd, done) => {
      if (armedAt !== undefined && decisions() > armedAt) held.push(() => fdatasync(fd, done));
      else fdatasync(fd, done);
    },
  });
  const decisions = () =>
    (store.database.prepare('SELECT COUNT(*) AS n FROM decisions').get() as { n: number }).n;
  const c = await kernelCloud(t, { store });
  const base = await c.app.listen({ port: 0, host: '127.0.0.1' });
  const authorize = (body: unknown) =>
    fetch(`${base}/api/v1/kernel/authorize`, {
      method: 'POST',
      headers: { ...bearer(c.a.keys.agent), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  // a first call registers the agent
  t.equal((await authorize(ledgerWrite(5, 'billing-bot', { idempotencyKey: 'invoice-9001' }))).status, 200);
  const action = ledgerWrite(40, 'billing-bot', { idempotencyKey: 'invoice-9002' });
  const send = () => authorize(action);
  const before = decisions();
  armedAt = before;
  const first = send();
  while (held.length === 0) await new Promise((r) => setTimeout(r, 5));
  t.equal(decisions(), before + 1, 'the first decision is committed and visible, its sync held');
  const repeat = send();
  await new Promise((r) => setTimeout(r, 200));
  armedAt = undefined;
  for (const release of held.splice(0)) release();
  const [a, b] = await Promise.all([first, repeat]);
  t.equal(a.status, 200, 'the first is decided');
  const bodyB = (await b.json()) as { proposalId?: string; error?: { code: string } };
  t.equal(b.status, 200, `the repeat gets the first decision, not ${JSON.stringify(bodyB.error)}`);
  t.equal(bodyB.proposalId, ((await a.json()) as { proposalId: string }).proposalId, 'the same proposal');
});
