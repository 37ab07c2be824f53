/**
 * The cap of open proposals per API key under simultaneous requests (last review, item 1): the count was read
 * before the decision's transaction, so requests of one key that ran at once all read the same count and all
 * passed the cap. Now it is counted again inside the transaction, after the locks: of SIMULTANEOUS proposals
 * only as many as the cap leaves room for are queued, the rest are refused 403 OPEN_PROPOSALS_LIMIT with
 * nothing reserved. On SQLite and PostgreSQL.
 */
import { get, kernelCloudOn, ledgerWrite, onBothStores, post } from './kernel-helpers.js';

const CAP = 3;
const SIMULTANEOUS = 12;

onBothStores(
  `${SIMULTANEOUS} simultaneous proposals of one key: ${CAP} queued, the rest refused`,
  async (t, store) => {
    const c = await kernelCloudOn(t, store, { openProposalsPerKey: CAP });
    // an unsure agent's ledger writes wait for a human, and each reserves its amount
    const unsure = () =>
      ledgerWrite(5, 'billing-bot', { context: { agentId: 'billing-bot', confidenceScore: 0.1 } });
    // the agent exists before the race, so only the cap decides
    t.equal(
      (await post(c, c.a.keys.agent, '/api/v1/kernel/authorize', ledgerWrite(1))).json().status,
      'ALLOW',
    );
    const answers = await Promise.all(
      Array.from({ length: SIMULTANEOUS }, () =>
        post(c, c.a.keys.agent, '/api/v1/kernel/authorize', unsure()),
      ),
    );
    const queued = answers.filter((a) => a.statusCode === 200 && a.json().status === 'REQUIRE_HUMAN');
    const refused = answers.filter((a) => a.json().error?.code === 'OPEN_PROPOSALS_LIMIT');
    t.equal(queued.length, CAP, 'exactly the cap is queued');
    t.equal(refused.length, SIMULTANEOUS - CAP, 'every other one is refused');
    for (const r of refused) t.equal(r.statusCode, 403);

    const waiting = (await get(c, c.a.keys.operator, '/api/v1/approvals')).json().items as unknown[];
    t.equal(waiting.length, CAP, 'the approvals queue holds the cap, no more');
    const agent = await c.store.findAgentById(c.a.id, 'billing-bot');
    const totals = await c.store.ledgerTotals(c.a.id, agent!.accountId, 3_600_000, c.clock.nowMs);
    t.equal(totals.reserved, 1 + CAP * 5, 'only the queued ones (and the first ALLOW) reserved budget');
  },
);
