/**
 * A decision that loses the budget race is re-decided as DENY inside its transaction; its proposal row must
 * say so too — status DENY, state denied, no reservation — because the approvals queue, execute, expiry
 * and the agent routes' repeats read the row, not the signed decision. Every call is held at commit until
 * all were evaluated against the same empty ledger, so every refusal is a lost race. Both routes: the agent
 * route settles an ALLOW at once (state executed), the kernel route leaves it open for execute. On SQLite,
 * and on PostgreSQL.
 */
import t, { type Test } from 'tap';
import { openKernelStore } from '../../src/store/open-kernel-store.js';
import { barrierAtCommit, tightBudgetPolicy } from '../helpers/budget-race.js';
import { bearer, registerLobe, transferCall } from '../helpers/cloud-app.js';
import { openTestPostgres, requirePostgres } from '../helpers/postgres.js';
import { type KernelTestCloud, kernelCloud, ledgerWrite } from './kernel-helpers.js';

type Tap = Test;

const BUDGET = 100;
const SPEND = 30;
const CALLS = 8;

const POLICY = tightBudgetPolicy('lost-race', BUDGET);

type Route = 'agentgate' | 'kernel';

async function raceAndCheckRows(t: Tap, c: KernelTestCloud, route: Route): Promise<void> {
  const key = c.a.keys.agent;
  let send: (i: number) => Promise<string>;
  if (route === 'agentgate') {
    const lobe = await registerLobe(c, c.a, 'lost-race-agent');
    send = async (i) => {
      const payload = transferCall(lobe, SPEND, { arguments: { recipient: `supplier-${i}`, amount: SPEND } });
      const res = await c.app.inject({
        method: 'POST',
        url: '/api/v1/agentgate/propose',
        headers: bearer(key),
        payload,
      });
      return res.json().decision_id as string;
    };
  } else {
    send = async () => {
      const res = await c.app.inject({
        method: 'POST',
        url: '/api/v1/kernel/authorize',
        headers: bearer(key),
        payload: ledgerWrite(SPEND, 'lost-race-bot'),
      });
      return res.json().proposalId as string;
    };
  }
  barrierAtCommit(c.store, CALLS);
  const ids = await Promise.all(Array.from({ length: CALLS }, (_, i) => send(i)));
  const k = await openKernelStore(c.store);
  const outcomes: string[] = [];
  for (const id of ids) {
    const decision = await c.store.getDecision(c.a.id, id);
    const row = await k.getProposal(c.a.id, id);
    outcomes.push(String(decision?.outcome));
    if (decision?.outcome === 'DENY') {
      t.same(
        [row?.status, row?.state, row?.reservationId],
        ['DENY', 'denied', null],
        `${id}: lost the race; its row says DENY, denied, no reservation`,
      );
    } else {
      t.same(
        [row?.status, row?.state],
        ['ALLOW', route === 'agentgate' ? 'executed' : 'open'],
        `${id}: won the race; its row says ALLOW`,
      );
      const reservation = row?.reservationId
        ? await c.store.getReservation(c.a.id, row.reservationId)
        : undefined;
      t.equal(reservation?.amount, SPEND, `${id}: its row names its reservation`);
    }
  }
  t.equal(outcomes.filter((o) => o === 'ALLOW').length, Math.floor(BUDGET / SPEND), 'what fits is approved');
  t.equal(outcomes.filter((o) => o === 'DENY').length, CALLS - Math.floor(BUDGET / SPEND), 'the rest lost');
}

for (const route of ['agentgate', 'kernel'] as const) {
  t.test(`SQLite, ${route} route: a lost budget race leaves a denied proposal row`, async (t) => {
    await raceAndCheckRows(t, await kernelCloud(t, { policyText: POLICY }), route);
  });

  t.test(`PostgreSQL, ${route} route: a lost budget race leaves a denied proposal row`, async (t) => {
    if (!(await requirePostgres(t))) return;
    const store = await openTestPostgres(t);
    await raceAndCheckRows(t, await kernelCloud(t, { store, policyText: POLICY }), route);
  });
}
