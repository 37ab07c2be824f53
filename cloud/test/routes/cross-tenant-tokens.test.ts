/**
 * One cloud signs every tenant's decisions with one proof key, and a lobe name is the agent's own name and
 * version: two tenants that register the same agent and send the same propose body get tokens for the same
 * subject digest. Checked with the request alone, the other tenant's token verifies — an approval made
 * under that tenant's policy and budget, replayed to this tenant's tool. The verifier's tenant check (the
 * statement's tenantId, `pentagate verify token|proof --tenant ID`) tells them apart.
 */
import { TrustStore } from '@pentagate/crypto';
import { verifyGovernanceToken, verifyProofPacket } from '@pentagate/verifier';
import t from 'tap';
import { bearer, registerLobe, testCloud, transferCall } from '../helpers/cloud-app.js';

t.test("another tenant's token or proof for the same request does not verify for this tenant", async (t) => {
  const cloud = await testCloud(t);
  const lobeA = await registerLobe(cloud, cloud.a);
  const lobeB = await registerLobe(cloud, cloud.b);
  t.equal(lobeA, lobeB, 'the same lobe name in both tenants');
  const request = transferCall(lobeA, 120);
  const propose = async (key: string) =>
    (
      await cloud.app.inject({
        method: 'POST',
        url: '/api/v1/agentgate/propose',
        headers: bearer(key),
        payload: request,
      })
    ).json();
  const inA = await propose(cloud.a.keys.agent);
  const inB = await propose(cloud.b.keys.agent);
  t.equal(inA.approved, true);
  t.equal(inB.approved, true);
  const keys = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/keys',
    headers: bearer(cloud.a.keys.auditor),
  });
  const trust = TrustStore.fromDocument(keys.json());

  t.equal(
    verifyGovernanceToken(inB.governance_token, trust, { request }).valid,
    true,
    'without a tenant, the request alone does not tell the two apart',
  );
  const forA = { request, tenantId: cloud.a.id };
  t.equal(verifyGovernanceToken(inA.governance_token, trust, forA).valid, true, "tenant a's own token");
  const replayed = verifyGovernanceToken(inB.governance_token, trust, forA);
  t.equal(replayed.valid, false, "tenant b's token is refused for tenant a");
  t.match(
    replayed.checks.find((c) => c.name === 'tenant'),
    { ok: false, detail: new RegExp(cloud.b.id) },
  );

  const proofOf = async (decisionId: string, key: string) =>
    (
      await cloud.app.inject({ method: 'GET', url: `/api/v1/proofs/${decisionId}`, headers: bearer(key) })
    ).json();
  const proofB = await proofOf(inB.decision_id, cloud.b.keys.auditor);
  t.equal(verifyProofPacket(proofB, trust, { tenantId: cloud.b.id }).valid, true, "b's proof, for b");
  t.equal(verifyProofPacket(proofB, trust, { tenantId: cloud.a.id }).valid, false, "b's proof, not for a");
});
