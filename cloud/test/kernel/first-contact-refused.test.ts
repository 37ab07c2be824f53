/**
 * An agent met for the first time is registered only once its proposal is admitted (last review, item 2): a
 * first proposal refused before its decision — the key at its cap of open proposals, a malformed
 * Idempotency-Key — registered the agent and wrote `agent.registered` all the same. Now nothing is created;
 * an admitted first proposal registers it (its entry before the decision's), and one whose name's older
 * registration holds the account is decided on that account. On SQLite and PostgreSQL.
 */
import { registerLobe } from '../helpers/cloud-app.js';
import {
  type KernelTestCloud,
  kernelCloudOn,
  ledgerWrite,
  onBothStores,
  post,
  vaultWrite,
} from './kernel-helpers.js';

const AUTHORIZE = '/api/v1/kernel/authorize';

/** The types of the audit entries written since `from`. */
async function entriesSince(c: KernelTestCloud, from: number): Promise<string[]> {
  return (await c.store.auditEntries(from, await c.store.auditSize())).map((e) => e.entry.type);
}

function selfCorrect(agentId: string) {
  return {
    action: {
      agent_id: agentId,
      intent_domain: 'OPERATIONS',
      tool_name: 'vault:write',
      tool_args: {},
      confidence: 0.1,
    },
  };
}

onBothStores('a first proposal refused at the cap registers nothing', async (t, store) => {
  const c = await kernelCloudOn(t, store, { openProposalsPerKey: 1 });
  t.equal(
    (await post(c, c.a.keys.agent, AUTHORIZE, vaultWrite())).json().status,
    'REQUIRE_HUMAN',
    'the key at its cap',
  );
  const before = await c.store.auditSize();

  const kernel = await post(c, c.a.keys.agent, AUTHORIZE, vaultWrite('new-kernel-bot'));
  t.equal(kernel.json().error?.code, 'OPEN_PROPOSALS_LIMIT', kernel.body);
  t.equal(await c.store.findAgentById(c.a.id, 'new-kernel-bot'), undefined, 'kernel route: no agent');

  const veto = await post(c, c.a.keys.agent, '/api/v1/selfcorrect', selfCorrect('new-selfcorrect-bot'));
  t.equal(veto.json().error?.code, 'OPEN_PROPOSALS_LIMIT', veto.body);
  t.equal(await c.store.findAgentById(c.a.id, 'new-selfcorrect-bot'), undefined, 'selfcorrect: no agent');

  t.same(await entriesSince(c, before), ['refusal', 'refusal'], 'only the refusals are logged');
});

onBothStores(
  'a first selfcorrect call with a malformed Idempotency-Key registers nothing',
  async (t, store) => {
    const c = await kernelCloudOn(t, store, {});
    const before = await c.store.auditSize();
    const res = await c.app.inject({
      method: 'POST',
      url: '/api/v1/selfcorrect',
      headers: { authorization: `Bearer ${c.a.keys.agent}`, 'idempotency-key': 'has a space' },
      payload: selfCorrect('header-bot'),
    });
    t.equal(res.json().error?.code, 'INVALID_HEADERS', res.body);
    t.equal(await c.store.findAgentById(c.a.id, 'header-bot'), undefined, 'no agent');
    t.notOk((await entriesSince(c, before)).includes('agent.registered'), 'no agent.registered entry');
  },
);

onBothStores('an admitted first proposal registers its agent, then decides', async (t, store) => {
  const c = await kernelCloudOn(t, store, {});
  const before = await c.store.auditSize();
  t.equal((await post(c, c.a.keys.agent, AUTHORIZE, ledgerWrite(5, 'fresh-bot'))).json().status, 'ALLOW');
  t.ok(await c.store.findAgentById(c.a.id, 'fresh-bot'), 'registered');
  t.same(
    await entriesSince(c, before),
    ['agent.registered', 'decision'],
    'registration first, then the decision',
  );
});

onBothStores('a first contact of a registered name is decided on that name’s account', async (t, store) => {
  const c = await kernelCloudOn(t, store, {});
  await registerLobe(c, c.a, 'acct-bot');
  t.equal((await post(c, c.a.keys.agent, AUTHORIZE, ledgerWrite(7, 'acct-bot'))).json().status, 'ALLOW');
  const met = await c.store.findAgentById(c.a.id, 'acct-bot');
  t.not(met?.accountId, 'acct-bot', 'the first-contact record joined the older registration’s account');
  const totals = await c.store.ledgerTotals(c.a.id, met!.accountId, 3_600_000, c.clock.nowMs);
  t.equal(totals.reserved + totals.spent, 7, 'and the spend is on that account');
});
