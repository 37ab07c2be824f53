/**
 * Agent identity on the agent routes: an agent's budget and metabolic history belong to its agent_name,
 * whatever version it registers or route it calls through, so registering again never buys a fresh budget
 * window (DESIGN §3 ECONOMY: "spend stays within the agent's budget"); and an API key bound to one agent
 * (`pentagate cloud apikey issue --agent NAME`) can neither register nor spend as another. Each behaviour
 * runs on SQLite and, with CI=true, on PostgreSQL.
 */
import t, { type Test } from 'tap';
import { issueApiKey } from '../../src/tenants/tenant-admin.js';
import { TEST_BINDING, registration, selfCorrectBody, transferCall } from '../helpers/cloud-app.js';
import { openTestPostgres, requirePostgres } from '../helpers/postgres.js';
import { get, kernelCloud, ledgerWrite, type KernelTestCloud, post } from '../kernel/kernel-helpers.js';

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

const AUTHORIZE = '/api/v1/kernel/authorize';
const EXECUTE = '/api/v1/kernel/execute';

/** A new agent key of tenant a, bound to `agentName` (and to the jurisdiction the example policy allows). */
async function boundKey(cloud: KernelTestCloud, agentName: string): Promise<string> {
  const binding = { ...TEST_BINDING, agent: agentName };
  return (await issueApiKey(cloud.store, cloud.a.id, 'agent', Date.now(), binding)).key;
}

/** The types of the audit entries appended since `fromIndex`. */
async function entryTypesSince(cloud: KernelTestCloud, fromIndex: number): Promise<string[]> {
  const entries = await cloud.store.auditEntries(fromIndex, await cloud.store.auditSize());
  return entries.map((e) => e.entry.type);
}

const errorOf = (body: Record<string, unknown>) => body.error as { code: string; message: string };

const codes = (body: Record<string, unknown>): string[] =>
  ((body.violation_details as { code: string }[] | undefined) ?? []).map((v) => v.code);

/** What the tenant's reservations total, whoever made them. */
async function reservedTotal(cloud: KernelTestCloud, agentIds: string[]): Promise<number> {
  let total = 0;
  for (const id of agentIds) {
    const totals = await cloud.store.ledgerTotals(cloud.a.id, id, 3_600_000, cloud.clock.nowMs);
    total += totals.spent + totals.reserved;
  }
  return total;
}

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

    t.test(
      "a key bound to one agent proposing with another agent's lobe is refused and reserves nothing",
      async (t) => {
        const cloud = await open(t);
        if (!cloud) return;
        const other = await lobeOf(cloud, cloud.a.keys.agent, 'treasury-agent', '1.0.0');
        const bound = await boundKey(cloud, 'billing-agent');
        const auditBefore = await cloud.store.auditSize();
        const res = await propose(cloud, bound, transfer(other, 400));
        t.equal(res.statusCode, 403);
        t.equal(errorOf(res.body).code, 'AGENT_FORBIDDEN');
        t.match(errorOf(res.body).message, /bound to agent "billing-agent", got agent "treasury-agent"/);
        t.same(
          await entryTypesSince(cloud, auditBefore),
          ['refusal'],
          'the refusal, and no decision, is on record',
        );
        const agent = await cloud.store.findAgentByLobe(cloud.a.id, other);
        t.equal(await reservedTotal(cloud, [agent!.accountId]), 0, 'nothing was reserved');
        const own = await lobeOf(cloud, bound, 'billing-agent', '1.0.0');
        t.equal(
          (await propose(cloud, bound, transfer(own, 400))).body.approved,
          true,
          'its own lobe proposes',
        );
      },
    );

    t.test('a key bound to one agent registers any version of it and no other agent_name', async (t) => {
      const cloud = await open(t);
      if (!cloud) return;
      const bound = await boundKey(cloud, 'billing-agent');
      t.equal((await register(cloud, bound, 'billing-agent', '1.0.0')).statusCode, 201);
      t.equal((await register(cloud, bound, 'billing-agent', '2.0.0')).statusCode, 201);
      const res = await register(cloud, bound, 'billing-agent-2', '1.0.0');
      t.equal(res.statusCode, 403);
      t.equal(errorOf(res.body).code, 'AGENT_FORBIDDEN');
      t.equal(await cloud.store.findAgentByLobe(cloud.a.id, 'billing-agent-2@1.0.0'), undefined);
    });

    t.test('selfcorrect names a registered agent by its lobe_name too, and the binding holds', async (t) => {
      const cloud = await open(t);
      if (!cloud) return;
      const lobe = await lobeOf(cloud, cloud.a.keys.agent, 'billing-agent', '1.0.0');
      const agent = await cloud.store.findAgentByLobe(cloud.a.id, lobe);
      const res = await post(cloud, cloud.a.keys.agent, '/api/v1/selfcorrect', selfCorrectBody(lobe, 400));
      t.equal(res.statusCode, 200, 'answered, not refused as a clash of names');
      t.equal(res.json().type, 'SERVICE_GOVERNANCE_CLEARED');
      t.equal(await reservedTotal(cloud, [agent!.accountId]), 400, "spent from the lobe's agent's budget");
      t.equal(
        await cloud.store.findAgentById(cloud.a.id, lobe),
        undefined,
        'no agent was registered by the lobe',
      );
      const other = await boundKey(cloud, 'treasury-agent');
      const refused = await post(cloud, other, '/api/v1/selfcorrect', selfCorrectBody(lobe, 10));
      t.equal(refused.statusCode, 403);
      t.equal(errorOf(refused.json()).code, 'AGENT_FORBIDDEN', "another agent's bound key may not use it");
    });

    t.test('a key bound to one agent self-corrects only as that agent', async (t) => {
      const cloud = await open(t);
      if (!cloud) return;
      const bound = await boundKey(cloud, 'billing-agent');
      const auditBefore = await cloud.store.auditSize();
      const res = await post(cloud, bound, '/api/v1/selfcorrect', selfCorrectBody('treasury-agent', 10));
      t.equal(res.statusCode, 403);
      t.equal(errorOf(res.json()).code, 'AGENT_FORBIDDEN', 'the error body');
      // every 403 of this route is a brief a client written from the specification can read (§2.5)
      t.equal(res.json().type, 'SERVICE_GOVERNANCE_VETO', 'beside the veto brief');
      t.match(res.json().violations, [
        /^AGENT_FORBIDDEN: action\.agent_id: this API key is bound to agent "billing-agent"/,
      ]);
      t.match(res.json().remediation, /the agent this API key is bound to/);
      t.type(res.json().summary, 'string');
      const auditor = await post(
        cloud,
        cloud.a.keys.auditor,
        '/api/v1/selfcorrect',
        selfCorrectBody('billing-agent', 10),
      );
      t.equal(auditor.statusCode, 403);
      t.same(
        [auditor.json().type, errorOf(auditor.json()).code, auditor.json().remediation],
        ['SERVICE_GOVERNANCE_VETO', 'SCOPE_FORBIDDEN', 'send the action with an API key of scope agent'],
        'a key of another scope gets the brief too',
      );
      t.equal(await cloud.store.findAgentById(cloud.a.id, 'treasury-agent'), undefined, 'not registered');
      t.same(
        await entryTypesSince(cloud, auditBefore),
        ['refusal', 'refusal'],
        'the two refusals; no agent.registered, no decision',
      );
      const own = await post(cloud, bound, '/api/v1/selfcorrect', selfCorrectBody('billing-agent', 10));
      t.equal(own.json().type, 'SERVICE_GOVERNANCE_CLEARED');
    });

    t.test(
      'a key bound to one agent authorizes and executes kernel proposals only as that agent',
      async (t) => {
        const cloud = await open(t);
        if (!cloud) return;
        const bound = await boundKey(cloud, 'billing-bot');
        const refused = await post(cloud, bound, AUTHORIZE, ledgerWrite(20, 'ops-bot'));
        t.equal(refused.statusCode, 403);
        t.equal(errorOf(refused.json()).code, 'AGENT_FORBIDDEN');
        t.equal(await cloud.store.findAgentById(cloud.a.id, 'ops-bot'), undefined, 'not registered');
        const own = (await post(cloud, bound, AUTHORIZE, ledgerWrite(20, 'billing-bot'))).json();
        t.equal(own.status, 'ALLOW');
        const others = (await post(cloud, cloud.a.keys.agent, AUTHORIZE, ledgerWrite(30, 'ops-bot'))).json();
        t.equal(others.status, 'ALLOW');
        const execute = await post(cloud, bound, EXECUTE, { proposalId: others.proposalId });
        t.equal(execute.statusCode, 403);
        t.equal(errorOf(execute.json()).code, 'AGENT_FORBIDDEN');
        t.equal((await post(cloud, bound, EXECUTE, { proposalId: own.proposalId })).statusCode, 200);
        const stillOpen = await post(cloud, cloud.a.keys.agent, EXECUTE, { proposalId: others.proposalId });
        t.equal(stillOpen.statusCode, 200, "the other agent's proposal was left to its own key");
      },
    );

    t.test(
      "a key bound to one agent reads its own agent's proofs, replays and audit events, and no other agent's",
      async (t) => {
        const cloud = await open(t);
        if (!cloud) return;
        const bound = await boundKey(cloud, 'billing-bot');
        const own = (await post(cloud, bound, AUTHORIZE, ledgerWrite(20, 'billing-bot'))).json();
        const others = (await post(cloud, cloud.a.keys.agent, AUTHORIZE, ledgerWrite(30, 'ops-bot'))).json();
        t.equal(others.status, 'ALLOW');

        t.equal((await get(cloud, bound, `/api/v1/proofs/${own.proposalId}`)).statusCode, 200);
        const proof = await get(cloud, bound, `/api/v1/proofs/${others.proposalId}`);
        t.equal(proof.statusCode, 404, "another agent's proof is as unknown as a made-up id");
        t.equal(errorOf(proof.json()).code, 'DECISION_NOT_FOUND');
        t.equal((await get(cloud, bound, `/api/v1/kernel/replay/${own.proposalId}`)).statusCode, 200);
        const replay = await get(cloud, bound, `/api/v1/kernel/replay/${others.proposalId}`);
        t.equal(replay.statusCode, 404);
        t.equal(errorOf(replay.json()).code, 'PROPOSAL_NOT_FOUND');

        const events = await get(cloud, bound, '/api/v1/kernel/audit/events');
        t.equal(events.statusCode, 200);
        const agents = new Set(
          (events.json().events as { actor: string; data: { agentId?: string } }[]).map(
            (e) => e.data.agentId ?? e.actor,
          ),
        );
        t.same([...agents], ['billing-bot'], 'only its own agent, with no filter given');
        const asked = await get(cloud, bound, '/api/v1/kernel/audit/events?agentId=ops-bot');
        t.equal(asked.statusCode, 403);
        t.equal(errorOf(asked.json()).code, 'AGENT_FORBIDDEN');
        // the tenant's unbound key still reads every agent
        const all = (await get(cloud, cloud.a.keys.agent, '/api/v1/kernel/audit/events')).json();
        t.ok(all.events.some((e: { data: { agentId?: string } }) => e.data.agentId === 'ops-bot'));
        t.equal(
          (await get(cloud, cloud.a.keys.agent, `/api/v1/proofs/${others.proposalId}`)).statusCode,
          200,
        );
      },
    );

    t.test(
      "a key bound to one agent gets no other agent's decision by repeating its idempotencyKey",
      async (t) => {
        const cloud = await open(t);
        if (!cloud) return;
        const bound = await boundKey(cloud, 'billing-bot');
        const action = { ...ledgerWrite(20, 'ops-bot'), idempotencyKey: 'ops-nightly-1' };
        const first = await post(cloud, cloud.a.keys.agent, AUTHORIZE, action);
        t.equal(first.json().status, 'ALLOW');
        const auditBefore = await cloud.store.auditSize();

        const repeat = await post(cloud, bound, AUTHORIZE, action);
        t.equal(repeat.statusCode, 403);
        t.equal(errorOf(repeat.json())?.code, 'AGENT_FORBIDDEN');
        t.notMatch(repeat.body, first.json().proposalId, "the other agent's proposal is not named");
        const other = { ...ledgerWrite(25, 'ops-bot'), idempotencyKey: 'ops-nightly-1' };
        const conflict = await post(cloud, bound, AUTHORIZE, other);
        t.equal(errorOf(conflict.json())?.code, 'AGENT_FORBIDDEN', 'not IDEMPOTENCY_CONFLICT naming it');
        t.same(await entryTypesSince(cloud, auditBefore), ['refusal', 'refusal'], 'only the refusals');
      },
    );
  });
}

behaviours('SQLite', (t) => kernelCloud(t));
behaviours('PostgreSQL', async (t) =>
  (await requirePostgres(t)) ? kernelCloud(t, { store: await openTestPostgres(t) }) : undefined,
);
