/**
 * The approvals queue under a flood (outside review F4): one agent key made 500 REQUIRE_HUMAN proposals, then a
 * held `policy:update`; the list was oldest first, capped, with no way past the cap, so the held one was not
 * shown and ran when its hold ended. Now held proposals lead the first page (soonest hold end first), a cursor
 * pages through the rest exactly once, and a key at its cap of open proposals is refused before anything is
 * reserved or queued. Each on SQLite and PostgreSQL (small limits stand in for 500 and 100).
 */
import { registerLobe, transferCall } from '../helpers/cloud-app.js';
import {
  get,
  type KernelTestCloud,
  kernelCloudOn,
  ledgerWrite,
  onBothStores,
  policyUpdate,
  post,
  vaultWrite,
} from './kernel-helpers.js';

const AUTHORIZE = '/api/v1/kernel/authorize';

interface Page {
  items: { id: string; status: string }[];
  moreItems: boolean;
  nextCursor?: string;
}

/** `count` REQUIRE_HUMAN proposals (vault writes) of the agent key, a millisecond apart; their ids. */
async function flood(c: KernelTestCloud, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const d = (
      await post(c, c.a.keys.agent, AUTHORIZE, { ...vaultWrite(`flood-${i}`), payload: { n: i } })
    ).json();
    if (d.status !== 'REQUIRE_HUMAN') throw new Error(`expected REQUIRE_HUMAN, got ${JSON.stringify(d)}`);
    ids.push(d.proposalId);
    c.advance(1);
  }
  return ids;
}

onBothStores('a flood of waiting proposals leaves the held one first on the first page', async (t, store) => {
  const c = await kernelCloudOn(t, store, { approvalsListLimit: 5, openProposalsPerKey: 50 });
  await flood(c, 12);
  const held = (await post(c, c.a.keys.agent, AUTHORIZE, policyUpdate('sneaky'))).json();
  t.equal(held.status, 'HELD_FOR_VETO');
  const page = (await get(c, c.a.keys.operator, '/api/v1/approvals')).json() as Page;
  t.equal(page.items.length, 5, 'a full page');
  t.equal(page.moreItems, true, 'more wait');
  t.equal(page.items[0]?.id, held.proposalId, 'the held proposal, made last, is listed first');
  t.type(page.nextCursor, 'string', 'and the answer says where the next page starts');
});

onBothStores('paging reaches every waiting item exactly once, held ones first', async (t, store) => {
  const c = await kernelCloudOn(t, store, { approvalsListLimit: 4, openProposalsPerKey: 50 });
  const waiting = await flood(c, 9);
  const held: string[] = [];
  for (const change of ['a', 'b', 'c']) {
    held.push(
      (await post(c, c.a.keys.agent, AUTHORIZE, { ...policyUpdate(), payload: { change } })).json()
        .proposalId,
    );
    c.advance(1);
  }
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 10; pages++) {
    const url =
      cursor === undefined ? '/api/v1/approvals' : `/api/v1/approvals?cursor=${encodeURIComponent(cursor)}`;
    const res = await get(c, c.a.keys.operator, url);
    t.equal(res.statusCode, 200, `page ${pages + 1}`);
    const page = res.json() as Page;
    seen.push(...page.items.map((i) => i.id));
    t.equal(page.moreItems, page.nextCursor !== undefined, 'a cursor exactly when more wait');
    if (pages === 0) {
      // deciding an item already shown moves no later item onto a page already read
      const first = page.items[0] as unknown as { id: string; actionDigest: string };
      const vetoed = await post(c, c.a.keys.operator, `/api/v1/approvals/${first.id}/veto`, {
        actionDigest: first.actionDigest,
      });
      t.equal(vetoed.statusCode, 200, 'the first item, read, is vetoed');
    }
    cursor = page.nextCursor;
    if (cursor === undefined) break;
  }
  t.same(seen, [...held, ...waiting], 'held by hold end, then waiting oldest first: each once');
  const bad = await get(c, c.a.keys.operator, '/api/v1/approvals?cursor=x.1.p');
  t.equal(bad.json().error?.code, 'INVALID_QUERY', 'a malformed cursor is refused');
});

onBothStores(
  'a key at its cap of open proposals is refused, and nothing is reserved or queued',
  async (t, store) => {
    const c = await kernelCloudOn(t, store, { openProposalsPerKey: 3 });
    // REQUIRE_HUMAN ledger writes (an unsure agent): each reserves its amount
    const unsure = () =>
      ledgerWrite(20, 'billing-bot', { context: { agentId: 'billing-bot', confidenceScore: 0.1 } });
    for (let i = 0; i < 3; i++)
      t.equal((await post(c, c.a.keys.agent, AUTHORIZE, unsure())).json().status, 'REQUIRE_HUMAN');
    const agent = await c.store.findAgentById(c.a.id, 'billing-bot');
    const totals = () => c.store.ledgerTotals(c.a.id, agent!.id, 3_600_000, c.clock.nowMs);
    const before = await totals();
    const auditBefore = await c.store.auditSize();

    const refused = await post(c, c.a.keys.agent, AUTHORIZE, unsure());
    t.equal(refused.statusCode, 403, refused.body);
    t.equal(refused.json().error.code, 'OPEN_PROPOSALS_LIMIT');
    t.match(refused.json().error.message, /already has 3 proposals waiting for an operator/);
    t.same(await totals(), before, 'nothing reserved');
    const entries = await c.store.auditEntries(auditBefore, await c.store.auditSize());
    t.same(
      entries.map((e) => e.entry.type),
      ['refusal'],
      'no decision recorded: only the refusal',
    );
    const queue = (await get(c, c.a.keys.operator, '/api/v1/approvals')).json() as Page;
    t.equal(queue.items.length, 3, 'nothing queued');
    t.equal(
      (await post(c, c.a.keys.agent, AUTHORIZE, policyUpdate())).json().error?.code,
      'OPEN_PROPOSALS_LIMIT',
      'a held proposal counts and is refused too',
    );
    const veto = await post(c, c.a.keys.agent, '/api/v1/selfcorrect', {
      action: {
        agent_id: 'ops-bot',
        intent_domain: 'OPERATIONS',
        tool_name: 'vault:write',
        tool_args: {},
        confidence: 0.1,
      },
    });
    t.equal(veto.statusCode, 403, 'selfcorrect: the specification’s veto status');
    t.match(
      veto.json(),
      { type: 'SERVICE_GOVERNANCE_VETO', error: { code: 'OPEN_PROPOSALS_LIMIT' } },
      'as a brief',
    );
    const lobe = await registerLobe(c, c.a);
    const call = transferCall(lobe, 10, { agent_confidence: 0.1 });
    const proposed = await post(c, c.a.keys.agent, '/api/v1/agentgate/propose', call);
    t.equal(proposed.statusCode, 403, 'agentgate propose: refused');
    t.match(
      proposed.json(),
      { approved: false, violations: [/^OPEN_PROPOSALS_LIMIT: /], error: { code: 'OPEN_PROPOSALS_LIMIT' } },
      'as the specification’s refused verdict: approved false with violations',
    );
    t.notOk(proposed.json().governance_token, 'and no token');
    t.equal(
      (await post(c, c.a.keys.agent, AUTHORIZE, ledgerWrite(5))).json().status,
      'ALLOW',
      'an ALLOW still passes',
    );

    const first = queue.items[0] as unknown as { id: string; actionDigest: string };
    const denied = await post(c, c.a.keys.operator, `/api/v1/approvals/${first.id}/deny`, {
      actionDigest: first.actionDigest,
    });
    t.equal(denied.statusCode, 200, denied.body);
    t.equal(
      (await post(c, c.a.keys.agent, AUTHORIZE, unsure())).json().status,
      'REQUIRE_HUMAN',
      'once one is decided, room again',
    );
  },
);
