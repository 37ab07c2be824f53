/**
 * The kernel store's contract, run against both implementations (SQLite, and PostgreSQL when reachable):
 * proposal rows written with their decision and idempotency keys (a taken key fails that decision alone,
 * even inside a batch), settlements (won, refused, missing) with their reservation and audit entry, the
 * approval and expiry queries, policy versions by digest, and the audit-event filters.
 */
import t, { type Test } from 'tap';
import { AuditLog } from '../../src/audit/audit-log.js';
import { RowConflict } from '../../src/store/composed-row.js';
import { proposalRow } from '../../src/store/kernel-rows.js';
import type { KernelStore, ProposalRecord } from '../../src/store/kernel-store.js';
import { openKernelStore } from '../../src/store/open-kernel-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { DecisionCommit, Store } from '../../src/store/store.js';
import { openTestPostgres, requirePostgres } from '../helpers/postgres.js';

type Tap = Test;

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
    proposedBy: 'key-1',
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

/**
 * Writes `p` the one way a proposal is written: as a row of its decision (DecisionParts.rows), optionally
 * with a budget reservation of `reserve`.
 */
function decideProposal(store: Store, p: ProposalRecord, reserve = 0): Promise<DecisionCommit<undefined>> {
  return store.commitDecision({
    tenantId: p.tenantId,
    agentId: p.agentId,
    nowMs: p.createdAtMs,
    ...(reserve > 0
      ? { reservation: { id: `res-${p.id}`, amount: reserve, limit: 1000, windowMs: 60_000 } }
      : {}),
    build: (ctx) => ({
      result: undefined,
      parts: {
        entry: entry(
          'decision',
          { decisionId: p.id, envelope: { payloadType: 'x', payload: '', signatures: [] } },
          p.tenantId,
          p.agentId,
          p.createdAtMs,
        )(ctx.index),
        decision: {
          id: p.id,
          tenantId: p.tenantId,
          agentId: p.agentId,
          outcome: p.status,
          approved: p.status === 'ALLOW',
          createdAtMs: p.createdAtMs,
          subjectDigest: p.actionDigest,
          policyDigest: null,
          reservedAmount: ctx.reserved ? reserve : 0,
          verdict: {},
        },
        call: {
          toolName: 'ledger:write',
          fingerprint: p.id.padEnd(64, '0'),
          nearFingerprint: p.id.padEnd(64, '1'),
          atMs: p.createdAtMs,
          approved: true,
          violations: [],
        },
        rows: [proposalRow(p)],
      },
    }),
  });
}

async function contract(t: Tap, store: Store): Promise<void> {
  const k: KernelStore = await openKernelStore(store);
  await decideProposal(store, proposal('p1', { idempotencyKey: 'key-1' }));
  const size = await store.auditSize();
  await t.rejects(
    decideProposal(store, proposal('p2', { idempotencyKey: 'key-1' })),
    RowConflict,
    'an idempotency key is taken once per tenant: the second decision fails',
  );
  t.equal(await store.auditSize(), size, 'the failed decision took no audit index');
  t.equal(await store.getDecision('ten-a', 'p2'), undefined, 'and wrote no decision');
  t.equal(await k.getProposal('ten-a', 'p2'), undefined, 'and no row');
  await decideProposal(store, proposal('p2', { idempotencyKey: 'key-1', tenantId: 'ten-b' }));
  await t.rejects(decideProposal(store, proposal('p1')), RowConflict, 'a proposal id is taken once');
  t.equal((await k.findByIdempotencyKey('ten-a', 'key-1'))?.id, 'p1');
  t.equal(await k.getProposal('ten-b', 'p1'), undefined, 'rows are per tenant');
  t.same(await k.getProposal('ten-a', 'p1'), proposal('p1', { idempotencyKey: 'key-1' }), 'as written');

  await batchWithTakenKey(t, store, k);

  await decideProposal(
    store,
    proposal('h1', { status: 'HELD_FOR_VETO', createdAtMs: T0 + 1, holdUntilMs: T0 + 500 }),
  );
  await decideProposal(
    store,
    proposal('r1', { status: 'REQUIRE_HUMAN', createdAtMs: T0 + 2, expiresAtMs: T0 + 10_000 }),
  );
  await decideProposal(store, proposal('d1', { status: 'DENY', state: 'denied' }));

  await store.createTenant({ id: 'ten-a', name: 'a', createdAtMs: T0 });
  const fromIndex = await store.auditSize();
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

  const lane = async (which: 'held' | 'waiting', after?: { sortMs: number; id: string }) =>
    (await k.listQueue('ten-a', which, after, 10)).map((p) => p.id);
  t.same(await lane('held'), ['h1'], 'the held lane');
  t.same(await lane('waiting'), ['r1'], 'the waiting lane');
  t.same(await lane('waiting', { sortMs: T0 + 2, id: 'r1' }), [], 'after its last item, nothing');
  t.same(await lane('waiting', { sortMs: T0 + 2, id: 'r0' }), ['r1'], 'ties broken by id');
  t.equal(await k.countOpenByKey('ten-a', 'key-1', 10), 2, "the key's open proposals waiting for a human");
  t.equal(await k.countOpenByKey('ten-a', 'key-1', 1), 1, 'counted no further than asked');
  t.equal(await k.countOpenByKey('ten-a', 'key-2', 10), 0);
  t.same(
    (await k.dueForExpiry(T0 + 2000, 10)).map((p) => `${p.tenantId}/${p.id}`).sort(),
    ['ten-a/h1', 'ten-b/p2'],
    'open or approved ones past expiry, of every tenant',
  );

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
  // the entries from the settlement on (the proposals' decision entries before it are not what is tested)
  const q = (extra: Record<string, unknown>) =>
    k.auditEvents({ tenantId: 'ten-a', limit: 100, afterIndex: fromIndex - 1, ...extra });
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

/**
 * Three decisions in one batch (handed over in the same turn), the second with the first's idempotency
 * key: it fails alone — no reservation, no audit index, no rows — and its batch-mates commit, gap-free.
 */
async function batchWithTakenKey(t: Tap, store: Store, k: KernelStore): Promise<void> {
  const size = await store.auditSize();
  const far = { expiresAtMs: T0 + 3_600_000 };
  const [a, b, c] = await Promise.allSettled([
    decideProposal(store, proposal('b-a', { idempotencyKey: 'batch-key', ...far }), 10),
    decideProposal(store, proposal('b-b', { idempotencyKey: 'batch-key', ...far }), 20),
    decideProposal(store, proposal('b-c', { idempotencyKey: 'other-key', ...far }), 40),
  ]);
  t.equal(a.status, 'fulfilled', 'the first with the key commits');
  t.ok(
    b.status === 'rejected' && b.reason instanceof RowConflict,
    'the second with it fails with RowConflict',
  );
  t.equal(c.status, 'fulfilled', 'a batch-mate after it commits');
  const indices = [a, c].map((r) => (r.status === 'fulfilled' ? r.value.audit.index : -1));
  t.same(indices, [size, size + 1], 'the failed decision left no gap in the log');
  t.equal(await store.auditSize(), size + 2);
  const entries = await store.auditEntries(size, size + 2);
  t.same(
    entries.map((e) => e.entry.data?.decisionId),
    ['b-a', 'b-c'],
  );
  t.same(
    await store.ledgerTotals('ten-a', 'agent-1', 60_000, T0),
    { spent: 0, reserved: 50 },
    'only the committed decisions reserved',
  );
  t.equal(await store.getReservation('ten-a', 'res-b-b'), undefined);
  t.equal(await store.getDecision('ten-a', 'b-b'), undefined);
  t.equal(await k.getProposal('ten-a', 'b-b'), undefined);
  t.equal((await k.findByIdempotencyKey('ten-a', 'batch-key'))?.id, 'b-a');
  const calls = await store.recentCalls('ten-a', 'agent-1', 0, 100);
  t.notOk(
    calls.some((call) => call.decisionId === 'b-b'),
    'nor a call record',
  );
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
