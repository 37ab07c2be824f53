/**
 * `GET /api/v1/audit/entries` with the console's filters (type, agentId, proposalId): each returns exactly the
 * caller's tenant's entries of that agent (actor or data.agentId), proposal (data.proposalId or
 * data.decisionId) or type, newest first, paged with `before`/`next` as the unfiltered list; another tenant's
 * entries never match; a malformed filter is a 400 that names the parameter.
 */
import t from 'tap';
import { bearer, testCloud } from '../helpers/cloud-app.js';
import { ledgerWrite } from '../kernel/kernel-helpers.js';

interface Entry {
  index: number;
  type: string;
  tenantId?: string;
  actor?: string;
  data: Record<string, unknown>;
}

t.test('audit entries filtered by agent, proposal and type', async (t) => {
  const cloud = await testCloud(t);
  const get = async (key: string, query: string) => {
    const res = await cloud.app.inject({
      method: 'GET',
      url: `/api/v1/audit/entries${query}`,
      headers: bearer(key),
    });
    return res;
  };
  const authorize = async (key: string, amount: number, agentId: string) => {
    const res = await cloud.app.inject({
      method: 'POST',
      url: '/api/v1/kernel/authorize',
      headers: bearer(key),
      payload: ledgerWrite(amount, agentId),
    });
    t.equal(res.statusCode, 200, `${agentId} proposes`);
    return res.json() as { proposalId: string };
  };
  const proposals: Record<string, string[]> = { 'billing-bot': [], 'ops-bot': [] };
  for (let i = 0; i < 4; i++) {
    for (const agent of ['billing-bot', 'ops-bot']) {
      proposals[agent]!.push((await authorize(cloud.a.keys.agent, 10 + i, agent)).proposalId);
    }
  }
  // An agent named outside the identifier alphabet (specification §2.1: a string) is found by its name.
  await authorize(cloud.a.keys.agent, 12, 'Zoë Bot');
  const byName = await get(cloud.a.keys.auditor, `?agentId=${encodeURIComponent('Zoë Bot')}`);
  t.equal(byName.statusCode, 200);
  t.ok(
    (byName.json() as { entries: Entry[] }).entries.some((e) => e.type === 'decision'),
    "'Zoë Bot' names its own decisions",
  );
  // The other tenant's agent has the same name: its entries must never show in a's pages.
  await authorize(cloud.b.keys.agent, 11, 'billing-bot');

  const all = (await get(cloud.a.keys.auditor, '?limit=200')).json() as { entries: Entry[] };
  const agentOf = (e: Entry) => [e.actor, e.data.agentId];
  const proposalOf = (e: Entry) => [e.data.proposalId, e.data.decisionId];
  const expect = (keep: (e: Entry) => boolean) => all.entries.filter(keep).map((e) => e.index);
  const indexes = (res: { json(): unknown }) =>
    (res.json() as { entries: Entry[] }).entries.map((e) => e.index);

  const billing = await get(cloud.a.keys.auditor, '?agentId=billing-bot&limit=200');
  t.equal(billing.statusCode, 200);
  t.same(
    indexes(billing),
    expect((e) => agentOf(e).includes('billing-bot')),
    "billing-bot's entries, newest first",
  );
  t.ok(indexes(billing).length >= 4, 'one at least per proposal');
  t.ok(
    (billing.json() as { entries: Entry[] }).entries.every((e) => e.tenantId === cloud.a.id),
    "no entry of the other tenant's billing-bot",
  );

  const one = proposals['ops-bot']![2]!;
  const byProposal = await get(cloud.a.keys.auditor, `?proposalId=${one}&limit=200`);
  t.same(
    indexes(byProposal),
    expect((e) => proposalOf(e).includes(one)),
    'one proposal',
  );
  t.ok(indexes(byProposal).length >= 1);
  const crossed = await get(cloud.a.keys.auditor, `?proposalId=${one}&agentId=billing-bot`);
  t.same(indexes(crossed), [], "an ops-bot proposal under billing-bot's filter: nothing");

  const type = all.entries[0]!.type;
  const byType = await get(cloud.a.keys.auditor, `?type=${type}&agentId=ops-bot&limit=200`);
  t.same(
    indexes(byType),
    expect((e) => e.type === type && agentOf(e).includes('ops-bot')),
    'type and agent together',
  );

  // Paged as the unfiltered list: `next` continues where the page ended, until null.
  const paged: number[] = [];
  let before: number | null = null;
  for (let pages = 0; pages < 20; pages++) {
    const res = await get(
      cloud.a.keys.auditor,
      `?agentId=billing-bot&limit=2${before === null ? '' : `&before=${before}`}`,
    );
    const page = res.json() as { entries: Entry[]; next: number | null };
    paged.push(...page.entries.map((e) => e.index));
    before = page.next;
    if (before === null) break;
  }
  t.same(paged, indexes(billing), 'pages of two add up to the whole filtered list');

  for (const [query, param] of [
    ['?agentId=', 'agentId'],
    [`?agentId=${'x'.repeat(129)}`, 'agentId'],
    ['?proposalId=%E2%80%AE', 'proposalId'],
    ['?type=Not_A_Type', 'type'],
  ] as const) {
    const res = await get(cloud.a.keys.auditor, query);
    t.equal(res.statusCode, 400, `${query} is refused`);
    t.match(res.body, param, 'naming the parameter');
  }
});
