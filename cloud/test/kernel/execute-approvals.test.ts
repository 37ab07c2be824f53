/**
 * Execution and human decisions: what may execute and when (ALLOW; REQUIRE_HUMAN once approved;
 * HELD_FOR_VETO after its hold unless vetoed), exactly once, with the budget reservation committed on
 * execution and released on denial, veto or expiry; approvals bound to the action digest; expiry.
 */
import { TrustStore } from '@pentagate/crypto';
import t from 'tap';
import { sweepExpired } from '../../src/kernel/expiry.js';
import { createKernelContext } from '../../src/kernel/register-kernel.js';
import type { KernelTestCloud } from './kernel-helpers.js';
import {
  digestOf,
  get,
  HOLD_MS,
  kernelCloud,
  ledgerWrite,
  policyUpdate,
  post,
  vaultWrite,
} from './kernel-helpers.js';

const AUTHORIZE = '/api/v1/kernel/authorize';
const EXECUTE = '/api/v1/kernel/execute';

async function reservationState(c: KernelTestCloud, proposalId: string): Promise<string | undefined> {
  const record = await c.store.getDecision(c.a.id, proposalId);
  const kernel = record?.verdict.kernel as { reservationId: string | null } | undefined;
  const id = kernel?.reservationId;
  return id ? (await c.store.getReservation(c.a.id, id))?.state : undefined;
}

async function execute(c: KernelTestCloud, proposalId: string) {
  return post(c, c.a.keys.agent, EXECUTE, { proposalId });
}

t.test('an ALLOW executes exactly once and commits its reservation', async (t) => {
  const c = await kernelCloud(t);
  const d = (await post(c, c.a.keys.agent, AUTHORIZE, ledgerWrite(200))).json();
  t.equal(await reservationState(c, d.proposalId), 'reserved');
  const first = await execute(c, d.proposalId);
  t.equal(first.statusCode, 200);
  t.equal(first.json().executed, true);
  t.equal(await reservationState(c, d.proposalId), 'committed');
  const [entry] = await c.store.auditEntries(first.json().auditIndex, first.json().auditIndex + 1);
  t.equal(entry!.entry.type, 'execution');
  t.equal(entry!.entry.data.proposalId, d.proposalId);
  const second = await execute(c, d.proposalId);
  t.equal(second.statusCode, 409);
  t.equal(second.json().error.code, 'DOUBLE_EXECUTION');
});

t.test('a DENY never executes; an unknown proposal is 404', async (t) => {
  const c = await kernelCloud(t);
  const d = (await post(c, c.a.keys.agent, AUTHORIZE, ledgerWrite(-5))).json();
  const res = await execute(c, d.proposalId);
  t.equal(res.statusCode, 403);
  t.equal(res.json().error.code, 'EXECUTION_DENIED');
  t.match(res.json().error.message, /denied at authorize \(INVARIANT\.PAYLOAD_INVALID\)/);
  const unknown = await execute(c, 'prp_nope');
  t.equal(unknown.statusCode, 404);
  t.equal(unknown.json().error.code, 'PROPOSAL_NOT_FOUND');
});

t.test(
  'REQUIRE_HUMAN: pending refuses execution; approval is bound to the digest; approved executes',
  async (t) => {
    const c = await kernelCloud(t);
    const action = ledgerWrite(20, 'billing-bot', {
      context: { agentId: 'billing-bot', confidenceScore: 0.1 },
    });
    const d = (await post(c, c.a.keys.agent, AUTHORIZE, action)).json();
    t.equal(d.status, 'REQUIRE_HUMAN');
    const pending = await execute(c, d.proposalId);
    t.equal(pending.statusCode, 403);
    t.match(pending.json().error.message, /waiting for an operator/);

    const list = (await get(c, c.a.keys.operator, '/api/v1/approvals')).json().items;
    t.same(
      list.map((i: { id: string }) => i.id),
      [d.proposalId],
    );
    t.equal(list[0].actionDigest, digestOf(action));
    t.same(list[0].action, action, 'the operator sees the action as proposed');

    const url = `/api/v1/approvals/${d.proposalId}`;
    const wrong = await post(c, c.a.keys.operator, `${url}/approve`, {
      actionDigest: digestOf(ledgerWrite(21)),
    });
    t.equal(wrong.statusCode, 409);
    t.match(wrong.json().error.message, /bound to the action reviewed/);
    t.notMatch(
      JSON.stringify(wrong.json()),
      digestOf(action),
      'the refusal does not disclose the digest it expected (an approval must come from a review)',
    );
    const byAgent = await post(c, c.a.keys.agent, `${url}/approve`, { actionDigest: digestOf(action) });
    t.equal(byAgent.statusCode, 403, 'an agent key cannot approve');
    const veto = await post(c, c.a.keys.operator, `${url}/veto`, { actionDigest: digestOf(action) });
    t.equal(veto.statusCode, 409, 'veto applies to holds only');

    const ok = await post(c, c.a.keys.operator, `${url}/approve`, {
      actionDigest: digestOf(action),
      comment: 'checked',
    });
    t.equal(ok.statusCode, 200);
    t.equal(ok.json().state, 'approved');
    const [entry] = await c.store.auditEntries(ok.json().auditIndex, ok.json().auditIndex + 1);
    t.equal(entry!.entry.type, 'approval');
    t.ok(entry!.entry.data.envelope, 'the approval is signed into the log');
    const twice = await post(c, c.a.keys.operator, `${url}/approve`, { actionDigest: digestOf(action) });
    t.equal(twice.statusCode, 409);
    t.same((await get(c, c.a.keys.operator, '/api/v1/approvals')).json().items, []);
    t.equal((await execute(c, d.proposalId)).statusCode, 200);
    t.equal(await reservationState(c, d.proposalId), 'committed');
  },
);

t.test('REQUIRE_HUMAN denied by an operator releases its reservation', async (t) => {
  const c = await kernelCloud(t);
  const action = ledgerWrite(30, 'billing-bot', {
    context: { agentId: 'billing-bot', confidenceScore: 0.1 },
  });
  const d = (await post(c, c.a.keys.agent, AUTHORIZE, action)).json();
  const res = await post(c, c.a.keys.operator, `/api/v1/approvals/${d.proposalId}/deny`, {
    actionDigest: digestOf(action),
  });
  t.equal(res.json().state, 'denied');
  t.equal(await reservationState(c, d.proposalId), 'released');
  t.equal((await execute(c, d.proposalId)).json().error.code, 'EXECUTION_DENIED');
});

t.test('HELD_FOR_VETO: refused inside the hold, executes after it; a veto stops it for good', async (t) => {
  const c = await kernelCloud(t);
  const action = policyUpdate();
  const held = (await post(c, c.a.keys.agent, AUTHORIZE, action)).json();
  const early = await execute(c, held.proposalId);
  t.equal(early.statusCode, 403);
  t.match(early.json().error.message, /held for veto until/);
  c.advance(HOLD_MS);
  t.equal((await execute(c, held.proposalId)).statusCode, 200, 'runs once the hold elapsed unvetoed');

  const vetoed = (
    await post(c, c.a.keys.agent, AUTHORIZE, { ...action, payload: { change: 'drop all budgets' } })
  ).json();
  const digest = digestOf({ ...action, payload: { change: 'drop all budgets' } });
  const items = (await get(c, c.a.keys.operator, '/api/v1/approvals')).json().items;
  t.equal(items[0].holdUntil, vetoed.holdUntil);
  const veto = await post(c, c.a.keys.operator, `/api/v1/approvals/${vetoed.proposalId}/veto`, {
    actionDigest: digest,
  });
  t.equal(veto.json().state, 'vetoed');
  c.advance(HOLD_MS);
  const after = await execute(c, vetoed.proposalId);
  t.equal(after.statusCode, 403);
  t.match(after.json().error.message, /vetoed/);
});

t.test(
  'expiry: an unexecuted ALLOW and an unapproved REQUIRE_HUMAN expire and release their budget',
  async (t) => {
    const c = await kernelCloud(t, { kernel: { executeTtlMs: 1000, approvalTtlMs: 2000 } });
    const allow = (await post(c, c.a.keys.agent, AUTHORIZE, ledgerWrite(40))).json();
    const action = vaultWrite();
    const human = (await post(c, c.a.keys.agent, AUTHORIZE, action)).json();
    c.advance(1001);
    const late = await execute(c, allow.proposalId);
    t.equal(late.statusCode, 403);
    t.match(late.json().error.message, /expired/);
    t.equal(await reservationState(c, allow.proposalId), 'released');
    c.advance(1000);
    const approve = await post(c, c.a.keys.operator, `/api/v1/approvals/${human.proposalId}/approve`, {
      actionDigest: digestOf(action),
    });
    t.equal(approve.statusCode, 409);
    t.match(approve.json().error.message, /expired .* counts as denied/);
    const expiries = await c.store.auditEntries(0, await c.store.auditSize());
    t.equal(expiries.filter((r) => r.entry.type === 'expiry').length, 2, 'each expiry is audited once');
  },
);

t.test('the expiry sweep settles due proposals without anyone touching them', async (t) => {
  const c = await kernelCloud(t, { kernel: { executeTtlMs: 1000, expirySweepMs: 0 } });
  const d = (await post(c, c.a.keys.agent, AUTHORIZE, ledgerWrite(40))).json();
  const k = await createKernelContext(c.app.cloud, {
    custodyTrust: TrustStore.fromDocument((await get(c, c.a.keys.agent, '/api/v1/keys')).json()),
    nowMs: () => c.clock.nowMs,
  });
  c.advance(5000);
  const swept = await sweepExpired(k);
  t.equal(swept, 1);
  t.equal(await reservationState(c, d.proposalId), 'released');
  t.equal((await execute(c, d.proposalId)).json().error.code, 'EXECUTION_DENIED');
});

t.test('with a sweep interval, the app expires due proposals by itself', async (t) => {
  const c = await kernelCloud(t, { kernel: { executeTtlMs: 1000, expirySweepMs: 10 } });
  const d = (await post(c, c.a.keys.agent, AUTHORIZE, ledgerWrite(40))).json();
  c.advance(5000);
  // wait (bounded) for a sweep tick; no assertion on how long it took
  for (let i = 0; i < 500 && (await reservationState(c, d.proposalId)) !== 'released'; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  t.equal(await reservationState(c, d.proposalId), 'released');
});
