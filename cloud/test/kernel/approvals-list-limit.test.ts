/**
 * The approvals list is cut at `approvalsListLimit` (oldest first), and says so: a held proposal executes when
 * its hold ends unless an operator vetoes it, so a cut list that passed for the whole queue would let the
 * proposals it leaves out run unreviewed.
 */
import t from 'tap';
import { get, kernelCloud, policyUpdate, post } from './kernel-helpers.js';

const AUTHORIZE = '/api/v1/kernel/authorize';

t.test('more held proposals than the list holds: the answer says more wait', async (t) => {
  const c = await kernelCloud(t, { kernel: { approvalsListLimit: 2 } });
  const ids: string[] = [];
  for (const change of ['one', 'two', 'three']) {
    const action = policyUpdate();
    const d = await post(c, c.a.keys.agent, AUTHORIZE, { ...action, payload: { change } });
    t.equal(d.json().status, 'HELD_FOR_VETO', 'held for veto');
    ids.push(d.json().proposalId);
    c.advance(10);
  }
  const list = (await get(c, c.a.keys.operator, '/api/v1/approvals')).json();
  t.same(
    list.items.map((i: { id: string }) => i.id),
    ids.slice(0, 2),
    'the oldest two are listed',
  );
  t.equal(list.moreItems, true, 'and the answer says a third waits beyond them');

  const first = list.items[0] as { id: string; actionDigest: string };
  const vetoed = await post(c, c.a.keys.operator, `/api/v1/approvals/${first.id}/veto`, {
    actionDigest: first.actionDigest,
  });
  t.equal(vetoed.statusCode, 200, 'the operator vetoes the oldest');
  const rest = (await get(c, c.a.keys.operator, '/api/v1/approvals')).json();
  t.same(
    rest.items.map((i: { id: string }) => i.id),
    ids.slice(1),
    'once one is decided the third is listed',
  );
  t.equal(rest.moreItems, false, 'and nothing waits beyond the list');
});

t.test('the list is cut by bytes too, and says so; the oldest proposal is always listed', async (t) => {
  const c = await kernelCloud(t, { kernel: { approvalsListMaxBytes: 3_000 } });
  const ids: string[] = [];
  const bytes: number[] = [];
  // Actions of ~1.4 KB each: two fit in 3,000 bytes, the third would pass it.
  for (const change of ['one', 'two', 'three']) {
    const action = {
      ...policyUpdate(),
      payload: { change, limits: Array.from({ length: 200 }, (_, i) => i + 0.25) },
    };
    const d = await post(c, c.a.keys.agent, AUTHORIZE, action);
    t.equal(d.json().status, 'HELD_FOR_VETO', d.body);
    ids.push(d.json().proposalId);
    c.advance(10);
  }
  const list = (await get(c, c.a.keys.operator, '/api/v1/approvals')).json();
  for (const item of list.items) bytes.push(Buffer.byteLength(JSON.stringify(item.action)));
  t.same(
    list.items.map((i: { id: string }) => i.id),
    ids.slice(0, 2),
    `the oldest two are listed (${bytes.join(' + ')} bytes of actions)`,
  );
  t.equal(list.moreItems, true, 'and the answer says a third waits beyond them');

  const one = await kernelCloud(t, { kernel: { approvalsListMaxBytes: 10 } });
  const d = await post(one, one.a.keys.agent, AUTHORIZE, { ...policyUpdate(), payload: { change: 'big' } });
  const alone = (await get(one, one.a.keys.operator, '/api/v1/approvals')).json();
  t.same(
    alone.items.map((i: { id: string }) => i.id),
    [d.json().proposalId],
    'an action larger than the bound is still listed when it is the oldest',
  );
  t.equal(alone.moreItems, false);
});
