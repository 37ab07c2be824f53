/**
 * The kernel store's contract, run against both implementations (SQLite, and PostgreSQL when reachable):
 * proposal rows and idempotency keys, settlements (won, refused, missing) with their reservation and audit
 * entry, the approval and expiry queries, policy versions by digest, and the audit-event filters.
 */
import t from 'tap';
import { AuditLog } from '../../src/audit/audit-log.js';
import type { KernelStore, ProposalRecord } from '../../src/store/kernel-store.js';
import { openKernelStore } from '../../src/store/open-kernel-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { openTestPostgres, requirePostgres } from '../helpers/postgres.js';

type Tap = Parameters<Parameters<typeof t.test>[1]>[0];

const T0 = 1_800_000_000_000;

function proposal(id: string, extra: Partial<ProposalRecord> = {}): ProposalRecord {
  return {
    tenantId: 'ten-a',
    id,
    agentId: 'agent-1',
    status: 'ALLOW',
    state: 'open',
    actionType: 'ledger:write',
    actionDigest: 'a'.repeat(64),
    idempotencyKey: null,
    reservationId: null,
    createdAtMs: T0,
    expiresAtMs: T0 + 1000,
    holdUntilMs: null,
    updatedAtMs: T0,
    settledBy: null,
    ...extra,
  };
}

const entry = (
  type: string,
  data: Record<string, unknown>,
  tenantId = 'ten-a',
  actor = 'agent-1',
  atMs = T0,
) => AuditLog.builder({ type, tenantId, actor, data }, atMs);

async function contract(t: Tap, store: Store): Promise<void> {
  const k: KernelStore = await openKernelStore(store);
  t.same(await k.insertProposal(proposal('p1', { idempotencyKey: 'key-1' })), { inserted: true });
  const repeat = await k.insertProposal(proposal('p2', { idempotencyKey: 'key-1' }));
  t.equal(repeat.inserted, false, 'an idempotency key is taken once per tenant');
  t.equal(!repeat.inserted && repeat.existing.id, 'p1');
  t.same(await k.insertProposal(proposal('p2', { idempotencyKey: 'key-1', tenantId: 'ten-b' })), {
    inserted: true,
  });
  await t.rejects(k.insertProposal(proposal('p1')), /collides/);
  t.equal((await k.findByIdempotencyKey('ten-a', 'key-1'))?.id, 'p1');
  t.equal(await k.getProposal('ten-b', 'p1'), undefined, 'rows are per tenant');

  await store.createTenant({ id: 'ten-a', name: 'a', createdAtMs: T0 });
  const settled = await k.settle({
    tenantId: 'ten-a',
    proposalId: 'p1',
    from: ['open'],
    to: 'executed',
    nowMs: T0 + 5,
    actor: 'key-1',
    reservation: { id: 'res-none', state: 'committed' },
    audit: entry('execution', { proposalId: 'p1', agentId: 'agent-1' }),
  });
  t.equal(settled.settled, true);
  const row = await k.getProposal('ten-a', 'p1');
  t.same([row?.state, row?.settledBy, row?.updatedAtMs], ['executed', 'key-1', T0 + 5]);
  const again = await k.settle({
    tenantId: 'ten-a',
    proposalId: 'p1',
    from: ['open'],
    to: 'executed',
    nowMs: T0,
    actor: null,
    audit: entry('execution', {}),
  });
  t.same(again, { settled: false, current: 'executed' }, 'a refused settlement names the current state');
  const missing = await k.settle({
    tenantId: 'ten-a',
    proposalId: 'nope',
    from: ['open'],
    to: 'expired',
    nowMs: T0,
    actor: null,
    audit: entry('expiry', {}),
  });
  t.same(missing, { settled: false, current: undefined });

  await k.insertProposal(proposal('h1', { status: 'HELD_FOR_VETO', createdAtMs: T0 + 1 }));
  await k.insertProposal(
    proposal('r1', { status: 'REQUIRE_HUMAN', createdAtMs: T0 + 2, expiresAtMs: T0 + 10_000 }),
  );
  await k.insertProposal(proposal('d1', { status: 'DENY', state: 'denied' }));
  t.same(
    (await k.listOpen('ten-a', ['REQUIRE_HUMAN', 'HELD_FOR_VETO'], 10)).map((p) => p.id),
    ['h1', 'r1'],
  );
  t.same(
    (await k.dueForExpiry(T0 + 2000, 10)).map((p) => `${p.tenantId}/${p.id}`).sort(),
    ['ten-a/h1', 'ten-b/p2'],
    'open or approved ones past expiry, of every tenant',
  );
  await k.setDecidedStatus('ten-a', 'h1', 'DENY', 'denied');
  t.same((await k.getProposal('ten-a', 'h1'))?.status, 'DENY');

  await store.putPolicy({
    tenantId: '*',
    digest: 'b'.repeat(64),
    policyId: 'p',
    source: 's',
    yamlText: 'version: 1',
    activatedAtMs: T0,
  });
  t.equal((await k.policyByDigest(['ten-a', '*'], 'b'.repeat(64)))?.policyId, 'p');
  t.equal(
    await k.policyByDigest(['ten-a'], 'b'.repeat(64)),
    undefined,
    'another tenant’s version is not visible',
  );

  await store.appendAudit(
    entry('decision', { proposalId: 'p9', agentId: 'agent-2' }, 'ten-a', 'agent-2', T0 + 10),
  );
  await store.appendAudit(entry('decision', { decisionId: 'p8' }, 'ten-b', 'agent-1', T0 + 20));
  await store.appendAudit(
    entry('veto', { proposalId: 'p9', agentId: 'agent-2' }, 'ten-a', 'key-op', T0 + 30),
  );
  const q = (extra: Record<string, unknown>) => k.auditEvents({ tenantId: 'ten-a', limit: 100, ...extra });
  const types = async (extra: Record<string, unknown>) => (await q(extra)).map((r) => r.entry.type);
  t.same(await types({}), ['execution', 'decision', 'veto']);
  t.same(await types({ type: 'veto' }), ['veto']);
  t.same(await types({ agentId: 'agent-2' }), ['decision', 'veto'], 'actor or data.agentId');
  t.same(await types({ proposalId: 'p9' }), ['decision', 'veto']);
  t.same(
    (await k.auditEvents({ tenantId: 'ten-b', proposalId: 'p8', limit: 5 })).length,
    1,
    'data.decisionId matches too',
  );
  t.same(await types({ fromIso: new Date(T0 + 10).toISOString(), toIso: new Date(T0 + 30).toISOString() }), [
    'decision',
  ]);
  const first = await q({ limit: 1 });
  t.same(await types({ afterIndex: first[0]!.index }), ['decision', 'veto']);
}

t.test('SQLite kernel store', async (t) => {
  const store = new SqliteStore({ path: ':memory:' });
  t.teardown(() => store.close());
  await contract(t, store);
});

t.test('PostgreSQL kernel store', async (t) => {
  if (!(await requirePostgres(t))) return;
  await contract(t, await openTestPostgres(t));
});
