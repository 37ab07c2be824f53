/**
 * Proof packets, published keys and the audit log's checkpoint / inclusion / consistency routes, each
 * checked with the offline verifier and the crypto package's RFC 6962 and C2SP verification.
 */
import {
  TrustStore,
  leafHash,
  verifyCheckpoint,
  verifyConsistency,
  verifyInclusion,
} from '@pentagate/crypto';
import { canonicalBytes, fromBase64 } from '@pentagate/protocol';
import { verifyProofPacket } from '@pentagate/verifier';
import t from 'tap';
import { bearer, registerLobe, testCloud, transferCall } from '../helpers/cloud-app.js';

t.test('proofs, keys and the audit log', async (t) => {
  const cloud = await testCloud(t);
  const lobe = await registerLobe(cloud, cloud.a);
  const auditor = bearer(cloud.a.keys.auditor);
  const propose = (payload: object) =>
    cloud.app.inject({
      method: 'POST',
      url: '/api/v1/agentgate/propose',
      headers: bearer(cloud.a.keys.agent),
      payload,
    });
  const approved = await propose(transferCall(lobe));
  const denied = await propose(transferCall(lobe, 0, { tool_name: 'os.exec', arguments: {} }));
  const keysRes = await cloud.app.inject({ method: 'GET', url: '/api/v1/keys', headers: auditor });
  const trust = TrustStore.fromDocument(keysRes.json());

  t.test('GET /api/v1/keys publishes a proof and a checkpoint key with validity windows', async (t) => {
    const keys = keysRes.json().keys as { role: string; kid: string; notBefore?: string; name?: string }[];
    t.same(keys.map((k) => k.role).sort(), ['checkpoint', 'proof']);
    t.ok(keys.every((k) => typeof k.notBefore === 'string'));
    t.equal(keys.find((k) => k.role === 'checkpoint')?.name, 'pentagate.local/audit');
    t.not(keys[0]?.kid, keys[1]?.kid, 'two distinct keys, one per role');
  });

  t.test(
    'GET /api/v1/proofs/:id returns a packet the offline verifier accepts, approved or vetoed',
    async (t) => {
      for (const res of [approved, denied]) {
        const id = String(res.headers['x-pentagate-decision-id']);
        const proof = await cloud.app.inject({
          method: 'GET',
          url: `/api/v1/proofs/${id}`,
          headers: auditor,
        });
        t.equal(proof.statusCode, 200);
        const packet = proof.json();
        const report = verifyProofPacket(packet, trust);
        t.equal(report.valid, true, report.failures.join('; '));
        t.equal(packet.auditEntry.data.decisionId, id);
        const tampered = structuredClone(packet);
        tampered.auditEntry.data.outcome = tampered.auditEntry.data.outcome === 'ALLOW' ? 'DENY' : 'ALLOW';
        t.equal(verifyProofPacket(tampered, trust).valid, false, 'a changed audit entry fails');
      }
    },
  );

  t.test("another tenant's decision id is not found (404), like an unknown one", async (t) => {
    const id = String(approved.headers['x-pentagate-decision-id']);
    const other = await cloud.app.inject({
      method: 'GET',
      url: `/api/v1/proofs/${id}`,
      headers: bearer(cloud.b.keys.auditor),
    });
    t.equal(other.statusCode, 404);
    t.equal(other.json().error.code, 'DECISION_NOT_FOUND');
    const unknown = await cloud.app.inject({
      method: 'GET',
      url: '/api/v1/proofs/dec_nothing',
      headers: auditor,
    });
    t.equal(unknown.statusCode, 404);
  });

  t.test('GET /api/v1/audit/checkpoint is a signed note of the current log', async (t) => {
    const res = await cloud.app.inject({ method: 'GET', url: '/api/v1/audit/checkpoint', headers: auditor });
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /text\/plain/);
    const cp = verifyCheckpoint(res.body, trust);
    t.equal(cp.size, await cloud.store.auditSize());
    t.equal(cp.origin, 'pentagate.local/audit');
    const noScope = await cloud.app.inject({
      method: 'GET',
      url: '/api/v1/audit/checkpoint',
      headers: bearer(cloud.a.keys.agent),
    });
    t.equal(noScope.statusCode, 403, 'agent keys do not read the log');
  });

  t.test('inclusion proofs verify against the checkpoint root for every entry', async (t) => {
    const cp = verifyCheckpoint(
      (await cloud.app.inject({ method: 'GET', url: '/api/v1/audit/checkpoint', headers: auditor })).body,
      trust,
    );
    const entries = await cloud.store.auditEntries(0, cp.size);
    for (const record of entries) {
      const res = await cloud.app.inject({
        method: 'GET',
        url: `/api/v1/audit/inclusion?index=${record.index}&size=${cp.size}`,
        headers: auditor,
      });
      const proof = res.json();
      const ok = verifyInclusion(
        leafHash(canonicalBytes(record.entry)),
        proof.leafIndex,
        proof.treeSize,
        proof.hashes.map((h: string) => fromBase64(h, 'hash', 32)),
        cp.rootHash,
      );
      t.ok(ok, `entry ${record.index} is included`);
    }
    const defaultSize = await cloud.app.inject({
      method: 'GET',
      url: '/api/v1/audit/inclusion?index=0',
      headers: auditor,
    });
    t.ok(defaultSize.json().treeSize >= cp.size, 'size defaults to the current log');
  });

  t.test('consistency proofs link an old checkpoint to a newer one', async (t) => {
    const note = (
      await cloud.app.inject({ method: 'GET', url: '/api/v1/audit/checkpoint', headers: auditor })
    ).body;
    const old = verifyCheckpoint(note, trust);
    await propose(transferCall(lobe, 10));
    const newer = verifyCheckpoint(
      (await cloud.app.inject({ method: 'GET', url: '/api/v1/audit/checkpoint', headers: auditor })).body,
      trust,
    );
    t.ok(newer.size > old.size);
    const res = await cloud.app.inject({
      method: 'GET',
      url: `/api/v1/audit/consistency?old=${old.size}&new=${newer.size}`,
      headers: auditor,
    });
    const proof = res.json();
    t.ok(
      verifyConsistency(
        old.size,
        newer.size,
        old.rootHash,
        newer.rootHash,
        proof.hashes.map((h: string) => fromBase64(h, 'hash', 32)),
      ),
    );
    const defaulted = await cloud.app.inject({
      method: 'GET',
      url: `/api/v1/audit/consistency?old=${old.size}`,
      headers: auditor,
    });
    t.equal(defaulted.statusCode, 200);
  });

  t.test('refuses sizes and indices outside the log with 400 INVALID_PROOF_RANGE', async (t) => {
    const size = await cloud.store.auditSize();
    for (const url of [
      `/api/v1/audit/inclusion?index=${size + 5}`,
      `/api/v1/audit/inclusion?index=0&size=${size + 100}`,
      `/api/v1/audit/inclusion?index=3&size=2`,
      `/api/v1/audit/consistency?old=5&new=2`,
      `/api/v1/audit/consistency?old=1&new=${size + 100}`,
    ]) {
      const res = await cloud.app.inject({ method: 'GET', url, headers: auditor });
      t.equal(res.statusCode, 400, url);
      t.equal(res.json().error.code, 'INVALID_PROOF_RANGE', url);
    }
    const extra = await cloud.app.inject({
      method: 'GET',
      url: '/api/v1/audit/inclusion?index=0&foo=1',
      headers: auditor,
    });
    t.equal(extra.json().error.code, 'INVALID_QUERY');
  });
});
