/**
 * The self-correcting route's optional `Idempotency-Key` header: the specification's record has no call id,
 * so a retry after a lost answer was decided again and its spend reserved twice. With the header a repeat of
 * the same body gets the first decision, and reserves nothing more; the same key on another body is refused
 * 409 IDEMPOTENCY_CONFLICT; each agent has its own keys; without the header every call is decided, as before.
 */
import t from 'tap';
import { bearer, selfCorrectBody, testCloud } from '../helpers/cloud-app.js';

t.test('Idempotency-Key makes a self-correcting retry get the first decision', async (t) => {
  const cloud = await testCloud(t);
  const send = (body: unknown, key?: string | string[]) =>
    cloud.app.inject({
      method: 'POST',
      url: '/api/v1/selfcorrect',
      headers: { ...bearer(cloud.a.keys.agent), ...(key === undefined ? {} : { 'idempotency-key': key }) },
      payload: body as Record<string, unknown>,
    });
  const body = selfCorrectBody('retry-bot', 100);
  const committed = async () => {
    const agent = await cloud.store.findAgentById(cloud.a.id, 'retry-bot');
    const totals = await cloud.store.ledgerTotals(cloud.a.id, agent!.id, 86_400_000, Date.now());
    return totals.reserved + totals.spent;
  };

  const first = await send(body, 'transfer-2026-11-29-0001');
  t.equal(first.statusCode, 200, first.body);
  const size = await cloud.store.auditSize();
  const again = await send(body, 'transfer-2026-11-29-0001');
  t.equal(again.statusCode, 200, again.body);
  t.equal(again.json().decision_id, first.json().decision_id, 'the retry gets the first decision');
  t.equal(again.json().governance_token, first.json().governance_token, 'and its token');
  t.equal(await cloud.store.auditSize(), size, 'no second decision');
  t.equal(await committed(), 100, 'the spend is reserved once');

  const other = await send(selfCorrectBody('retry-bot', 250), 'transfer-2026-11-29-0001');
  t.equal(other.statusCode, 409, other.body);
  t.equal(other.json().error.code, 'IDEMPOTENCY_CONFLICT');
  t.match(other.json().error.message, /Idempotency-Key was used for another request/);

  const otherAgent = await send(selfCorrectBody('second-bot', 100), 'transfer-2026-11-29-0001');
  t.equal(otherAgent.statusCode, 200, "another agent's key space is its own");
  t.not(otherAgent.json().decision_id, first.json().decision_id);

  const unkeyed = [await send(body), await send(body)];
  t.not(
    unkeyed[0]!.json().decision_id,
    unkeyed[1]!.json().decision_id,
    'without the header each call is decided',
  );

  for (const bad of ['', 'has space', 'x'.repeat(257), 'ünïcode', ['a', 'b']]) {
    const res = await send(body, bad);
    t.equal(res.statusCode, 400, `${JSON.stringify(bad)}: refused`);
    t.equal(res.json().error.code, 'INVALID_HEADERS');
  }
});
