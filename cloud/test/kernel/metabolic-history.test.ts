/**
 * What a decision reads of the agent's past and keeps for replay: only the calls the metabolic ledger can
 * count (the same call, a near-identical one, denied calls of the same tool). A busy agent's unrelated calls
 * are neither read nor stored in each decision record, and the loop rule still counts the repeats.
 */
import t from 'tap';
import type { CallRecord } from '../../src/pentagon/types.js';
import { kernelCloud, ledgerWrite, post } from './kernel-helpers.js';

const AUTHORIZE = '/api/v1/kernel/authorize';

async function storedHistory(
  c: Awaited<ReturnType<typeof kernelCloud>>,
  proposalId: string,
): Promise<CallRecord[]> {
  const record = await c.store.getDecision(c.a.id, proposalId);
  if (!record) throw new Error(`no decision ${proposalId}`);
  return (record.verdict.kernel as { input: { history: CallRecord[] } }).input.history;
}

t.test('unrelated calls stay out of a decision; repeats of the same call are counted', async (t) => {
  const c = await kernelCloud(t);
  // forty different payments: recipients differ in letters, so they are neither identical nor
  // near-identical (the near fingerprint forgets digits and amounts)
  const name = (i: number) =>
    `supplier-${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`;
  for (let i = 0; i < 40; i++) {
    const payment = { ...ledgerWrite(10), payload: { amount: 10, recipient: name(i), currency: 'USD' } };
    const d = (await post(c, c.a.keys.agent, AUTHORIZE, payment)).json();
    t.equal(d.status, 'ALLOW', `payment ${i}`);
    c.advance(10);
  }
  const other = { ...ledgerWrite(5), payload: { amount: 5, recipient: 'another-party', currency: 'USD' } };
  const fresh = (await post(c, c.a.keys.agent, AUTHORIZE, other)).json();
  t.same(await storedHistory(c, fresh.proposalId), [], 'a new call: none of the forty is relevant');

  const repeated = { ...ledgerWrite(7), payload: { amount: 7, recipient: 'supplier-x', currency: 'USD' } };
  const statuses: string[] = [];
  let last = '';
  for (let i = 0; i < 6; i++) {
    const d = (await post(c, c.a.keys.agent, AUTHORIZE, repeated)).json();
    statuses.push(d.status);
    last = d.proposalId;
    c.advance(10);
  }
  const history = await storedHistory(c, last);
  t.ok(history.length >= 5, `the sixth repeat was decided on its ${history.length} earlier copies`);
  t.ok(
    history.every((h) => h.fingerprint === history[0]!.fingerprint),
    'and only on them (same fingerprint), not on the forty others',
  );
  t.equal(statuses.at(-1), 'DENY', `the loop rule fired (${statuses.join(', ')})`);
});
