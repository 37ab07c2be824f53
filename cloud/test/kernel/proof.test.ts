/**
 * The proof of an executed ALLOW verifies offline with @pentagate/verifier against the published keys,
 * and fails after any single byte of it changes.
 */
import { TrustStore } from '@pentagate/crypto';
import { join } from 'node:path';
import { verifyAuditKit, verifyProofPacket } from '@pentagate/verifier';
import { exportAuditKit } from '../../src/audit/kit-export.js';
import t from 'tap';
import { digestOf, get, kernelCloud, ledgerWrite, policyUpdate, post, vaultWrite } from './kernel-helpers.js';

/** A different character at the same place: digits and letters stay in their class where they can. */
function changed(c: string): string {
  if (c >= '0' && c <= '8') return String.fromCharCode(c.charCodeAt(0) + 1);
  if (c === '9') return '0';
  if (c >= 'a' && c <= 'z') return c === 'z' ? 'a' : String.fromCharCode(c.charCodeAt(0) + 1);
  if (c >= 'A' && c <= 'Z') return c === 'Z' ? 'A' : String.fromCharCode(c.charCodeAt(0) + 1);
  return c === 'x' ? 'y' : 'x';
}

function accepted(text: string, trust: TrustStore): boolean {
  let packet: unknown;
  try {
    packet = JSON.parse(text);
  } catch {
    return false;
  }
  try {
    return verifyProofPacket(packet, trust).valid;
  } catch {
    return false;
  }
}

t.test('the proof of an executed ALLOW verifies offline and fails after any byte changes', async (t) => {
  const c = await kernelCloud(t);
  const d = (await post(c, c.a.keys.agent, '/api/v1/kernel/authorize', ledgerWrite(60))).json();
  const res = await post(c, c.a.keys.agent, '/api/v1/kernel/execute', { proposalId: d.proposalId });
  const proof = res.json().proof;
  const trust = TrustStore.fromDocument((await get(c, c.a.keys.agent, '/api/v1/keys')).json());
  const report = verifyProofPacket(proof, trust, { atMs: c.clock.nowMs });
  t.equal(report.valid, true, report.failures.join('; '));
  t.match(report.subject, d.proposalId);
  t.ok(
    proof.checkpoint && proof.inclusion.treeSize > proof.auditEntry.index,
    'anchored in a signed checkpoint',
  );

  const text = JSON.stringify(proof);
  const survivors: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const tampered = text.slice(0, i) + changed(text[i]!) + text.slice(i + 1);
    if (accepted(tampered, trust)) survivors.push(i);
  }
  t.same(survivors, [], `all ${text.length} single-byte changes are rejected`);
});

t.test('executing a human-approved proposal returns the proof of the approval too', async (t) => {
  // outside spec review (§1.7): the packet said only REQUIRE_HUMAN; the signed APPROVED was in the log alone
  const c = await kernelCloud(t);
  const action = ledgerWrite(20, 'billing-bot', {
    context: { agentId: 'billing-bot', confidenceScore: 0.1 },
  });
  const d = (await post(c, c.a.keys.agent, '/api/v1/kernel/authorize', action)).json();
  t.equal(d.status, 'REQUIRE_HUMAN');
  const approved = await post(c, c.a.keys.operator, `/api/v1/approvals/${d.proposalId}/approve`, {
    actionDigest: digestOf(action),
  });
  t.equal(approved.statusCode, 200, approved.body);
  const res = (await post(c, c.a.keys.agent, '/api/v1/kernel/execute', { proposalId: d.proposalId })).json();
  const trust = TrustStore.fromDocument((await get(c, c.a.keys.agent, '/api/v1/keys')).json());
  const decision = verifyProofPacket(res.proof, trust, { atMs: c.clock.nowMs });
  t.equal(decision.valid, true, decision.failures.join('; '));
  t.match(decision.subject, /\(REQUIRE_HUMAN\)/, 'the decision packet: a human was required');
  const approval = verifyProofPacket(res.approvalProof, trust, { atMs: c.clock.nowMs });
  t.equal(approval.valid, true, approval.failures.join('; '));
  t.match(approval.subject, `decision ${d.proposalId} (APPROVED)`, 'the approval packet: one approved');
  t.equal(res.approvalProof.auditEntry.index, approved.json().auditIndex, "the operator's approval entry");
  const allow = (await post(c, c.a.keys.agent, '/api/v1/kernel/authorize', ledgerWrite(5))).json();
  const plain = (
    await post(c, c.a.keys.agent, '/api/v1/kernel/execute', { proposalId: allow.proposalId })
  ).json();
  t.notOk('approvalProof' in plain, 'an ALLOW has no approval to prove');
});

t.test('an audit kit exported after kernel activity verifies end to end', async (t) => {
  const c = await kernelCloud(t);
  const key = c.a.keys.agent;
  const allow = (await post(c, key, '/api/v1/kernel/authorize', ledgerWrite(10))).json();
  await post(c, key, '/api/v1/kernel/execute', { proposalId: allow.proposalId });
  const held = policyUpdate();
  const h = (await post(c, key, '/api/v1/kernel/authorize', held)).json();
  await post(c, c.a.keys.operator, `/api/v1/approvals/${h.proposalId}/veto`, {
    actionDigest: digestOf(held),
  });
  const human = vaultWrite();
  const r = (await post(c, key, '/api/v1/kernel/authorize', human)).json();
  await post(c, c.a.keys.operator, `/api/v1/approvals/${r.proposalId}/approve`, {
    actionDigest: digestOf(human),
  });
  const short = (await post(c, key, '/api/v1/kernel/authorize', ledgerWrite(5))).json();
  c.advance(10 * 60_000);
  await post(c, key, '/api/v1/kernel/execute', { proposalId: short.proposalId }); // expires it

  const out = join(c.dir, 'kit');
  await exportAuditKit(c.store, out, { origin: c.app.cloud.keys.origin, noteSigner: c.app.cloud.keys.note });
  // the kit's own keys: this test is about which entries it holds (the verifier's tests cover trust)
  const report = await verifyAuditKit(out, { selfAssertedTrust: true });
  t.equal(report.valid, true, report.failures.join('; '));
  const types = (await c.store.auditEntries(0, await c.store.auditSize())).map((e) => e.entry.type);
  for (const type of ['decision', 'execution', 'veto', 'approval', 'expiry'])
    t.ok(types.includes(type), `${type} is in the kit`);
});
