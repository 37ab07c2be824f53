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
