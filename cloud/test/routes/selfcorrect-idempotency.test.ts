/**
 * The self-correcting route's optional `Idempotency-Key` header: the specification's record has no call id,
 * so a retry after a lost answer was decided again and its spend reserved twice. With the header a repeat of
 * the same body gets the first decision, and reserves nothing more; the same key on another body is refused
 * 409 IDEMPOTENCY_CONFLICT; each agent has its own keys; without the header every call is decided, as before.
 */
import t from 'tap';
import { issueApiKey } from '../../src/tenants/tenant-admin.js';
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

t.test("a repeat from another API key does not get the first key's decision", async (t) => {
  // outside spec review: a key with no department replayed a finance key's approval with its
  // Idempotency-Key; asked without it, that key is refused INVARIANT.JURISDICTION_DEPARTMENT
  const cloud = await testCloud(t);
  const { key: unbound } = await issueApiKey(cloud.store, cloud.a.id, 'agent', Date.now());
  const send = (key: string, idempotencyKey: string) =>
    cloud.app.inject({
      method: 'POST',
      url: '/api/v1/selfcorrect',
      headers: { ...bearer(key), 'idempotency-key': idempotencyKey },
      payload: selfCorrectBody('retry-bot', 7) as Record<string, unknown>,
    });
  const first = await send(cloud.a.keys.agent, 'pay-7');
  t.equal(first.statusCode, 200, first.body);
  const size = await cloud.store.auditSize();
  const borrowed = await send(unbound, 'pay-7');
  t.equal(borrowed.statusCode, 409, borrowed.body);
  t.equal(borrowed.json().error.code, 'IDEMPOTENCY_CONFLICT');
  t.match(borrowed.json().error.message, /used by another API key .*a repeat must come from the key/);
  t.notOk('governance_token' in borrowed.json(), 'no token');
  const written = await cloud.store.auditEntries(size, await cloud.store.auditSize());
  t.same(
    written.map((e) => e.entry.type),
    ['refusal'],
    'no decision: the refusal is audited, as every refusal is',
  );
  const own = await send(unbound, 'pay-7-own');
  t.equal(own.statusCode, 403, 'asked in its own name, that key is refused');
  t.match(JSON.stringify(own.json()), /INVARIANT\.JURISDICTION_DEPARTMENT/);
  t.equal((await send(cloud.a.keys.agent, 'pay-7')).statusCode, 200, 'the first key still gets its decision');
});
