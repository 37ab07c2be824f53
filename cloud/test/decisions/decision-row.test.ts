/**
 * What an agent-route decision stores, and what every later statement about it signs. The request as sent is
 * named by its digest (the row's subject_digest, the statement's subject) and is not stored again in the
 * decision row's verdict JSON, where replay needs only the kernel and governed forms; nor are the row's own
 * columns, the policy digest twice or the arguments twice (stored-verdict.ts), and reading the row puts them
 * back. A statement signed later (the release of an approved call) names the same subject.
 */
import { fromGovernanceToken, jcsDigestHex } from '@pentagate/crypto';
import t from 'tap';
import { readStoredVerdict } from '../../src/kernel/stored-verdict.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { registerLobe, transferCall } from '../helpers/cloud-app.js';
import { get, kernelCloud, post } from '../kernel/kernel-helpers.js';

const PROPOSE = '/api/v1/agentgate/propose';

function subjectOfToken(token: string): { name: string; digest: { sha256: string } } {
  const envelope = fromGovernanceToken(token);
  return JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')).subject[0];
}

t.test('the decision row names the request by its digest and does not store it again', async (t) => {
  const cloud = await kernelCloud(t);
  const lobe = await registerLobe(cloud, cloud.a);
  const call = transferCall(lobe, 40);
  const toolCallId = (call.tool_call as { id: string }).id;
  const res = await post(cloud, cloud.a.keys.agent, PROPOSE, call);
  t.equal(res.json().approved, true);
  const decisionId = res.json().decision_id as string;

  const db = (cloud.store as SqliteStore).database;
  const row = db.prepare('SELECT subject_digest, verdict FROM decisions WHERE id = ?').get(decisionId) as {
    subject_digest: string;
    verdict: string;
  };
  t.equal(row.subject_digest, jcsDigestHex(call), 'subject_digest is SHA-256(JCS(request))');
  t.notOk(row.verdict.includes(toolCallId), 'the request (its tool_call.id) is not in the verdict JSON');
  const kernel = JSON.parse(row.verdict).kernel;
  t.same(kernel.origin, { route: 'agentgate.propose', subjectName: 'agentgate.propose:payments.transfer' });
  t.equal(kernel.input.governed.triggerPrompt, (call.tool_call as { trigger_prompt: string }).trigger_prompt);
  const count = (needle: string) => row.verdict.split(needle).length - 1;
  const recipient = (call.tool_call as { arguments: { recipient: string } }).arguments.recipient;
  t.equal(count(recipient), 1, 'the arguments once (governed form), not again in the kernel form');
  t.equal(count(decisionId), 0, 'the proposal id is the row id, not repeated in the JSON');
  t.equal(count(kernel.input.policyDigest), 1, 'the policy digest once');
  t.notOk(kernel.input.agent.tenantId ?? kernel.input.agent.agentId, 'tenant and agent are the row columns');
  const found = await cloud.store.getDecision(cloud.a.id, decisionId);
  const back = found && readStoredVerdict(found);
  if (!back) throw new Error(`decision ${decisionId} not read back`);
  t.equal(back.decision.proposalId, decisionId, 'read back: the body has its proposal id');
  t.equal(back.kernel.input.proposalId, decisionId, 'and the replay input its own');
  t.equal(back.kernel.input.agent.tenantId, cloud.a.id);
  t.equal(back.kernel.policy.digest, back.kernel.input.policyDigest);
  t.same(
    (back.kernel.input.action.payload as { arguments: unknown }).arguments,
    (call.tool_call as { arguments: unknown }).arguments,
  );
  t.equal(
    subjectOfToken(res.json().governance_token).digest.sha256,
    row.subject_digest,
    'the token signs the same subject',
  );
});

t.test('a call released after approval is signed for the request it was proposed with', async (t) => {
  const cloud = await kernelCloud(t);
  const lobe = await registerLobe(cloud, cloud.a);
  const call = transferCall(lobe, 50, { agent_confidence: 0.2 });
  const waiting = (await post(cloud, cloud.a.keys.agent, PROPOSE, call)).json();
  t.equal(waiting.approved, false);
  const list = (await get(cloud, cloud.a.keys.operator, '/api/v1/approvals')).json();
  const item = list.items.find((i: { id: string }) => i.id === waiting.approval_id);
  const approve = await post(cloud, cloud.a.keys.operator, `/api/v1/approvals/${item.id}/approve`, {
    actionDigest: item.actionDigest,
  });
  t.equal(approve.statusCode, 200);
  const released = (await post(cloud, cloud.a.keys.agent, PROPOSE, call)).json();
  t.equal(released.approved, true);
  t.same(subjectOfToken(released.governance_token), {
    name: 'agentgate.propose:payments.transfer',
    digest: { sha256: jcsDigestHex(call) },
  });
});
