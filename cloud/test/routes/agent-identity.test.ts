/**
 * Agent identity on the agent routes: an agent's budget and metabolic history belong to its agent_name,
 * whatever version it registers or route it calls through, so registering again never buys a fresh budget
 * window (DESIGN §3 ECONOMY: "spend stays within the agent's budget"). Each behaviour runs on SQLite and,
 * with CI=true, on PostgreSQL.
 */
import t, { type Test } from 'tap';
import { registration, transferCall } from '../helpers/cloud-app.js';
import { openTestPostgres, requirePostgres } from '../helpers/postgres.js';
import { kernelCloud, type KernelTestCloud, post } from '../kernel/kernel-helpers.js';

/** The example policy's `default-hourly` budget covers every lobe: 1 000 USD per hour. */
const HOURLY_BUDGET = 1000;

async function register(
  cloud: KernelTestCloud,
  key: string,
  agentName: string,
  version: string,
): Promise<{ statusCode: number; body: Record<string, unknown> }> {
  const res = await post(cloud, key, '/api/v1/agentgate/register', {
    ...registration(agentName),
    agent_version: version,
  });
  return { statusCode: res.statusCode, body: res.json() };
}

async function lobeOf(cloud: KernelTestCloud, key: string, agentName: string, version: string) {
  const res = await register(cloud, key, agentName, version);
  if (res.statusCode !== 201 && res.statusCode !== 200)
    throw new Error(`register: ${JSON.stringify(res.body)}`);
  return res.body.lobe_name as string;
}

/** A transfer of `amount` (its own arguments, so no two calls look like a loop). */
function transfer(lobe: string, amount: number) {
  return transferCall(lobe, amount, {
    arguments: { recipient: `supplier ${amount}`, amount, currency: 'USD', memo: `invoice ${amount}` },
  });
}

async function propose(cloud: KernelTestCloud, key: string, body: Record<string, unknown>) {
  const res = await post(cloud, key, '/api/v1/agentgate/propose', body);
  return { statusCode: res.statusCode, body: res.json() };
}

const codes = (body: Record<string, unknown>): string[] =>
  ((body.violation_details as { code: string }[] | undefined) ?? []).map((v) => v.code);

/** Opens a cloud on the dialect's store, or undefined when the dialect is unavailable (skipped). */
type Opener = (t: Test) => Promise<KernelTestCloud | undefined>;

function behaviours(name: string, open: Opener): void {
  t.test(name, async (t) => {
    t.test('a new agent_version of an agent spends from the same budget window', async (t) => {
      const cloud = await open(t);
      if (!cloud) return;
      const key = cloud.a.keys.agent;
      const first = await lobeOf(cloud, key, 'billing-agent', '1.0.0');
      for (const amount of [450, 451]) {
        const res = await propose(cloud, key, transfer(first, amount));
        t.equal(res.body.approved, true, `${amount} fits the budget of ${HOURLY_BUDGET}`);
      }
      const second = await lobeOf(cloud, key, 'billing-agent', '2.0.0');
      t.not(second, first, 'the new version is a new lobe');
      const res = await propose(cloud, key, transfer(second, 452));
      t.equal(res.body.approved, false, '450 + 451 + 452 > 1 000: the new version has no fresh budget');
      t.ok(codes(res.body).includes('ECONOMY.BUDGET_EXCEEDED'), JSON.stringify(codes(res.body)));
    });

    t.test('the same agent first met on /selfcorrect spends from the same budget window', async (t) => {
      const cloud = await open(t);
      if (!cloud) return;
      const key = cloud.a.keys.agent;
      const lobe = await lobeOf(cloud, key, 'billing-agent', '1.0.0');
      for (const amount of [450, 451])
        t.equal((await propose(cloud, key, transfer(lobe, amount))).body.approved, true);
      const res = await post(cloud, key, '/api/v1/selfcorrect', {
        action: {
          agent_id: 'billing-agent',
          intent_domain: 'FINANCE',
          tool_name: 'payments.transfer',
          tool_args: { recipient: 'supplier 452', amount: 452 },
          confidence: 0.9,
          spend_amount: 452,
        },
      });
      t.equal(res.statusCode, 403, 'vetoed');
      t.ok((res.json().violations ?? []).some((v: string) => v.startsWith('ECONOMY.BUDGET_EXCEEDED')));
    });

    t.test('a new agent_version does not forget the calls that count towards a loop', async (t) => {
      const cloud = await open(t);
      if (!cloud) return;
      const key = cloud.a.keys.agent;
      const first = await lobeOf(cloud, key, 'billing-agent', '1.0.0');
      const same = { arguments: { recipient: 'supplier', amount: 10, currency: 'USD', memo: 'same' } };
      // the example policy refuses the 4th identical call within a minute (metabolic.maxIdentical: 3)
      for (let i = 0; i < 3; i++)
        t.equal((await propose(cloud, key, transferCall(first, 10, same))).body.approved, true);
      const second = await lobeOf(cloud, key, 'billing-agent', '2.0.0');
      const res = await propose(cloud, key, transferCall(second, 10, same));
      t.equal(res.body.approved, false);
      t.ok(codes(res.body).includes('ECONOMY.LOOP_IDENTICAL'), JSON.stringify(codes(res.body)));
    });
  });
}

behaviours('SQLite', (t) => kernelCloud(t));
behaviours('PostgreSQL', async (t) =>
  (await requirePostgres(t)) ? kernelCloud(t, { store: await openTestPostgres(t) }) : undefined,
);
