/**
 * Someone with write access to the database changes the audit log or a decision row behind the cloud's
 * back (the append-only triggers dropped first). The cloud must not sign or serve anything over a log it
 * cannot account for: no checkpoint over a tree with missing or invented leaves, no proof packet of
 * another decision, no kit whose entries do not hash to the leaves it signs. Real SQLite, a second
 * connection as the intruder.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { exportAuditKit } from '../../src/audit/kit-export.js';
import { leafHashOfText } from '../../src/store/audit/audit-leaf.js';
import { type TestCloud, bearer, registerLobe, testCloud, transferCall } from '../helpers/cloud-app.js';

/** Two decisions (approved, denied) in the log of a fresh cloud; nothing has asked for a checkpoint yet. */
async function cloudWithDecisions(t: Test) {
  const cloud = await testCloud(t);
  const lobe = await registerLobe(cloud, cloud.a);
  const propose = async (payload: object) => {
    const res = await cloud.app.inject({
      method: 'POST',
      url: '/api/v1/agentgate/propose',
      headers: bearer(cloud.a.keys.agent),
      payload,
    });
    return String(res.headers['x-pentagate-decision-id']);
  };
  const approved = await propose(transferCall(lobe));
  const denied = await propose(transferCall(lobe, 0, { tool_name: 'os.exec', arguments: {} }));
  return { cloud, approved, denied, proposeAgain: () => propose(transferCall(lobe)) };
}

/** The intruder: its own connection to the cloud's database, the append-only triggers dropped. */
function intruder(t: Test, cloud: TestCloud): Database.Database {
  const db = new Database(join(cloud.dir, 'cloud.db'));
  t.teardown(() => db.close());
  db.exec('DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete;');
  return db;
}

const get = (cloud: TestCloud, url: string) =>
  cloud.app.inject({ method: 'GET', url, headers: bearer(cloud.a.keys.auditor) });

const auditSize = (db: Database.Database) =>
  (db.prepare('SELECT COUNT(*) AS n FROM audit_log').get() as { n: number }).n;

t.test('an entry deleted from the middle of the log: no checkpoint is signed over the gap', async (t) => {
  const { cloud } = await cloudWithDecisions(t);
  const db = intruder(t, cloud);
  db.prepare('DELETE FROM audit_log WHERE idx = 2').run();
  const res = await get(cloud, '/api/v1/audit/checkpoint');
  t.equal(res.statusCode, 503, 'refused, not signed');
  t.equal(res.json().error.code, 'STORE_UNAVAILABLE');
});

t.test('an entry inserted past the end, leaving a gap: no checkpoint over invented leaves', async (t) => {
  const { cloud, proposeAgain } = await cloudWithDecisions(t);
  const db = intruder(t, cloud);
  const size = auditSize(db);
  db.prepare('INSERT INTO audit_log SELECT ?, entry, leaf_hash FROM audit_log WHERE idx = 1').run(size + 2);
  await proposeAgain(); // the cloud's next entry goes after the intruder's, past the gap
  const res = await get(cloud, '/api/v1/audit/checkpoint');
  t.equal(res.statusCode, 503, 'refused, not signed');
});

t.test("a decision row pointed at another decision's entry: its proof is not served", async (t) => {
  const { cloud, approved, denied } = await cloudWithDecisions(t);
  const db = intruder(t, cloud);
  // the DENY now points at the ALLOW's entry, whose packet verifies — as the proof of the wrong decision
  db.prepare(
    'UPDATE decisions SET audit_index = (SELECT audit_index FROM decisions WHERE id = ?) WHERE id = ?',
  ).run(approved, denied);
  const res = await get(cloud, `/api/v1/proofs/${denied}`);
  t.equal(res.statusCode, 503, 'not a 200 with the ALLOW');
  t.equal((await get(cloud, `/api/v1/proofs/${approved}`)).statusCode, 200, 'the other decision is fine');
});

t.test("an entry's text changed, its leaf hash kept: no proof packet, no kit", async (t) => {
  const { cloud, denied } = await cloudWithDecisions(t);
  const db = intruder(t, cloud);
  db.prepare(
    `UPDATE audit_log SET entry = replace(entry, '"outcome":"DENY"', '"outcome":"ALLOW"')
      WHERE idx = (SELECT audit_index FROM decisions WHERE id = ?)`,
  ).run(denied);
  const res = await get(cloud, `/api/v1/proofs/${denied}`);
  t.equal(res.statusCode, 503, 'a packet that cannot verify is not served');

  const out = mkdtempSync(join(tmpdir(), 'pentagate-kit-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  const index = (
    db.prepare('SELECT audit_index AS i FROM decisions WHERE id = ?').get(denied) as { i: number }
  ).i;
  await t.rejects(
    exportAuditKit(cloud.store, join(out, 'kit'), {
      origin: cloud.app.cloud.keys.origin,
      noteSigner: cloud.app.cloud.keys.note,
    }),
    new RegExp(`entry ${index}: its text does not hash to its stored leaf hash`),
    'the export names the changed entry instead of signing a kit that cannot verify',
  );
  t.same(
    readdirSync(join(out, 'kit')),
    [],
    'and leaves no half kit behind (entries are written as they are read)',
  );
});

t.test('an entry rewritten with its leaf hash under a running cloud: its proof is not served', async (t) => {
  // the tree the cloud signs already holds the old leaf; the row now says something else, consistently
  const { cloud, denied } = await cloudWithDecisions(t);
  t.equal((await get(cloud, '/api/v1/audit/checkpoint')).statusCode, 200);
  const db = intruder(t, cloud);
  const row = db
    .prepare('SELECT idx, entry FROM audit_log WHERE idx = (SELECT audit_index FROM decisions WHERE id = ?)')
    .get(denied) as { idx: number; entry: string };
  const entry = row.entry.replace('"outcome":"DENY"', '"outcome":"ALLOW"');
  db.prepare('UPDATE audit_log SET entry = ?, leaf_hash = ? WHERE idx = ?').run(
    entry,
    Buffer.from(leafHashOfText(entry)),
    row.idx,
  );
  // Another process's commit is read from the cloud's next event-loop turn (store/sqlite-read-snapshot.ts);
  // in this one the checkpoint's read transaction still shows the entry as it was.
  await new Promise((resolve) => setImmediate(resolve));
  const res = await get(cloud, `/api/v1/proofs/${denied}`);
  t.equal(res.statusCode, 503, 'not a packet whose entry is not the leaf the checkpoint signs');
});

t.test('an entry deleted: the export names the missing index', async (t) => {
  const { cloud } = await cloudWithDecisions(t);
  const db = intruder(t, cloud);
  db.prepare('DELETE FROM audit_log WHERE idx = 3').run();
  const out = mkdtempSync(join(tmpdir(), 'pentagate-kit-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  await t.rejects(
    exportAuditKit(cloud.store, join(out, 'kit'), {
      origin: cloud.app.cloud.keys.origin,
      noteSigner: cloud.app.cloud.keys.note,
    }),
    /entry 3 is missing/,
  );
});
