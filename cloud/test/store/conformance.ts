/**
 * The one conformance suite every Store implementation passes (ARCHITECTURE.md §7: the same suite runs against
 * SQLite and PostgreSQL). `open` returns a fresh, empty store. Its tenant, agent and decision makers are
 * exported for the dialect-specific tests (postgres-group-commit.test.ts).
 */
import { leafHash } from '@pentagate/crypto';
import { canonicalBytes, newId } from '@pentagate/protocol';
import type { Test } from 'tap';
import { AuditLog } from '../../src/audit/audit-log.js';
import type { AuditEntryBuilder, DecisionWrite, Store } from '../../src/store/store.js';

type Tap = Test;

const T0 = 1_750_000_000_000;

function event(type: string, tenantId?: string): AuditEntryBuilder {
  return AuditLog.builder(
    { type, ...(tenantId ? { tenantId } : {}), actor: 'system', data: { note: type } },
    T0,
  );
}

export async function tenant(store: Store, name = 'acme'): Promise<string> {
  const id = newId('ten');
  await store.createTenant({ id, name, createdAtMs: T0 });
  return id;
}

export async function agent(store: Store, tenantId: string, name = 'billing'): Promise<string> {
  const id = newId('agt');
  const r = await store.registerAgent(
    {
      id,
      tenantId,
      name,
      version: '1',
      domain: 'FINANCE',
      lobeName: `${name}@1`,
      createdAtMs: T0,
      metadata: {},
    },
    event('agent.registered', tenantId),
  );
  if (r.status !== 'created') throw new Error(`expected created, got ${r.status}`);
  return id;
}

export function decisionWrite(
  tenantId: string,
  agentId: string,
  opts: { amount?: number; limit?: number; windowMs?: number; nowMs?: number } = {},
): DecisionWrite<{ reserved: boolean; spent: number; reservedBefore: number }> {
  const nowMs = opts.nowMs ?? T0;
  const id = newId('dec', nowMs);
  return {
    tenantId,
    agentId,
    nowMs,
    ...(opts.amount !== undefined
      ? {
          reservation: {
            id: newId('res'),
            amount: opts.amount,
            limit: opts.limit ?? 100,
            windowMs: opts.windowMs ?? 60_000,
          },
        }
      : {}),
    build: (ctx) => ({
      result: { reserved: ctx.reserved, spent: ctx.ledger.spent, reservedBefore: ctx.ledger.reserved },
      parts: {
        entry: AuditLog.builder(
          {
            type: 'decision',
            tenantId,
            actor: agentId,
            data: { decisionId: id, envelope: { payloadType: 'x', payload: '', signatures: [] } },
          },
          nowMs,
        )(ctx.index),
        decision: {
          id,
          tenantId,
          agentId,
          outcome: ctx.reserved ? 'ALLOW' : 'DENY',
          approved: ctx.reserved,
          createdAtMs: nowMs,
          subjectDigest: 'a'.repeat(64),
          policyDigest: null,
          reservedAmount: ctx.reserved ? (opts.amount ?? 0) : 0,
          verdict: { approved: ctx.reserved },
        },
        call: {
          toolName: 'payments.transfer',
          fingerprint: 'f'.repeat(64),
          nearFingerprint: 'e'.repeat(64),
          atMs: nowMs,
          approved: ctx.reserved,
          violations: ctx.reserved ? [] : ['ECONOMY.BUDGET_EXCEEDED'],
        },
      },
    }),
  };
}

export function storeConformance(t: Tap, open: () => Promise<Store>): void {
  const withStore = (name: string, fn: (t: Tap, store: Store) => Promise<void>) =>
    t.test(name, async (t) => {
      const store = await open();
      t.teardown(() => store.close());
      await fn(t, store);
    });

  withStore('creates, gets and lists tenants; an unknown id is absent', async (t, store) => {
    const a = await tenant(store, 'a');
    const b = await tenant(store, 'b');
    t.equal((await store.getTenant(a))?.name, 'a');
    t.equal(await store.getTenant('ten_nope'), undefined);
    t.same((await store.listTenants()).map((x) => x.id).sort(), [a, b].sort());
  });

  withStore(
    'stores API keys by hash, lists them per tenant and revokes only within the owning tenant',
    async (t, store) => {
      const a = await tenant(store, 'a');
      const b = await tenant(store, 'b');
      const key = {
        id: newId('key'),
        tenantId: a,
        scope: 'agent' as const,
        keyHashHex: '1'.repeat(64),
        createdAtMs: T0,
        revokedAtMs: null,
        region: null,
        department: null,
        agentName: null,
      };
      await store.insertApiKey(key);
      t.same(await store.findApiKeyByHash('1'.repeat(64)), key);
      const bound = {
        ...key,
        id: newId('key'),
        keyHashHex: '3'.repeat(64),
        region: 'EU',
        department: 'finance',
        agentName: 'billing-bot',
      };
      await store.insertApiKey(bound);
      t.same(
        await store.findApiKeyByHash('3'.repeat(64)),
        bound,
        'the jurisdiction and agent binding are stored with the key',
      );
      await store.revokeApiKey(a, bound.id, T0);
      t.equal(await store.findApiKeyByHash('2'.repeat(64)), undefined);
      t.equal((await store.listApiKeys(a)).length, 2);
      t.equal((await store.listApiKeys(b)).length, 0);
      t.equal(await store.revokeApiKey(b, key.id, T0 + 1), false, 'another tenant cannot revoke it');
      t.equal(await store.revokeApiKey(a, key.id, T0 + 2), true);
      t.equal(await store.revokeApiKey(a, key.id, T0 + 3), false, 'a second revoke changes nothing');
      t.equal((await store.findApiKeyByHash('1'.repeat(64)))?.revokedAtMs, T0 + 2);
    },
  );

  withStore('registers an agent once per tenant + name + version, with one audit entry', async (t, store) => {
    const a = await tenant(store, 'a');
    const b = await tenant(store, 'b');
    const reg = {
      id: 'agt_1',
      tenantId: a,
      name: 'bot',
      version: '1',
      domain: 'FINANCE',
      lobeName: 'bot@1',
      createdAtMs: T0,
      metadata: { x: 1 },
    };
    const first = await store.registerAgent(reg, event('agent.registered', a));
    t.equal(first.status, 'created');
    if (first.status === 'created') t.equal(first.audit.index, 0);
    const again = await store.registerAgent(
      { ...reg, id: 'agt_2', lobeName: 'other' },
      event('agent.registered', a),
    );
    t.equal(again.status, 'existing');
    if (again.status === 'existing') t.equal(again.agent.id, 'agt_1', 'the first registration wins');
    t.equal(await store.auditSize(), 1, 'a repeat writes no audit entry');
    const taken = await store.registerAgent(
      { ...reg, id: 'agt_3', version: '2' },
      event('agent.registered', a),
    );
    t.same(taken, { status: 'conflict', field: 'lobeName' });
    const idTaken = await store.registerAgent(
      { ...reg, version: '3', lobeName: 'bot@3' },
      event('agent.registered', a),
    );
    t.same(idTaken, { status: 'conflict', field: 'id' });
    const otherTenant = await store.registerAgent({ ...reg, tenantId: b }, event('agent.registered', b));
    t.equal(otherTenant.status, 'created', 'the same names in another tenant are another agent');
    t.same((await store.findAgentByLobe(a, 'bot@1'))?.metadata, { x: 1 });
    if (first.status === 'created') t.equal(first.agent.accountId, 'agt_1', 'a new name opens its account');
    t.equal(await store.findAgentByLobe(a, 'nope'), undefined);
    t.equal((await store.findAgentById(a, 'agt_1'))?.lobeName, 'bot@1');
    t.equal(await store.findAgentById(b, 'agt_3'), undefined);
    t.equal(await store.auditSize(), 2);
  });

  withStore(
    'a later version or first contact of an agent_name joins the account of its first registration',
    async (t, store) => {
      const a = await tenant(store, 'a');
      const b = await tenant(store, 'b');
      const reg = {
        id: 'agt_1',
        tenantId: a,
        name: 'bot',
        version: '1',
        domain: 'FINANCE',
        lobeName: 'bot@1',
        createdAtMs: T0,
        metadata: {},
      };
      await store.registerAgent(reg, event('agent.registered', a));
      const v2 = await store.registerAgent(
        { ...reg, id: 'agt_2', version: '2', lobeName: 'bot@2', createdAtMs: T0 + 1 },
        event('agent.registered', a),
      );
      t.equal(v2.status, 'created');
      if (v2.status === 'created') t.equal(v2.agent.accountId, 'agt_1');
      t.equal((await store.findAgentByLobe(a, 'bot@2'))?.accountId, 'agt_1');
      t.equal((await store.findAgentById(a, 'agt_2'))?.accountId, 'agt_1');
      const again = await store.registerAgent(
        { ...reg, id: 'agt_3', version: '2', lobeName: 'x' },
        event('agent.registered', a),
      );
      t.equal(again.status, 'existing');
      if (again.status === 'existing') t.equal(again.agent.accountId, 'agt_1', 'a repeat reads the account');
      const other = await store.registerAgent(
        { ...reg, id: 'agt_9', name: 'other', lobeName: 'other@1' },
        event('agent.registered', a),
      );
      t.equal(other.status, 'created');
      if (other.status === 'created')
        t.equal(other.agent.accountId, 'agt_9', 'another name, another account');
      const elsewhere = await store.registerAgent(
        { ...reg, tenantId: b, id: 'agt_5', version: '2', lobeName: 'bot@2' },
        event('agent.registered', b),
      );
      t.equal(elsewhere.status, 'created');
      if (elsewhere.status === 'created')
        t.equal(elsewhere.agent.accountId, 'agt_5', 'accounts are per tenant');
    },
  );

  withStore(
    'commits a decision with its reservation, audit entry and call record in one step',
    async (t, store) => {
      const a = await tenant(store);
      const ag = await agent(store, a);
      const ok = await store.commitDecision(decisionWrite(a, ag, { amount: 60, limit: 100 }));
      t.equal(ok.reserved, true);
      t.same(ok.result, { reserved: true, spent: 0, reservedBefore: 0 });
      t.equal(ok.decision.auditIndex, 1);
      t.same(await store.getDecision(a, ok.decision.id), ok.decision);
      const over = await store.commitDecision(decisionWrite(a, ag, { amount: 50, limit: 100 }));
      t.equal(over.reserved, false, '60 + 50 > 100 is refused');
      t.same(over.result, { reserved: false, spent: 0, reservedBefore: 60 });
      t.same(await store.ledgerTotals(a, ag, 60_000, T0), { spent: 0, reserved: 60 });
      const calls = await store.recentCalls(a, ag, 0, 10);
      t.same(
        calls.map((c) => c.violations),
        [[], ['ECONOMY.BUDGET_EXCEEDED']],
        'both calls are in the metabolic ledger, oldest first',
      );
      const none = await store.commitDecision(decisionWrite(a, ag));
      t.equal(none.reserved, false, 'no reservation asked, none taken');
      t.equal(await store.auditSize(), 4);
    },
  );

  withStore(
    'stores the signed envelope once, in the audit entry, and refuses a decision whose entry has none',
    async (t, store) => {
      const a = await tenant(store);
      const ag = await agent(store, a);
      const ok = await store.commitDecision(decisionWrite(a, ag, { amount: 5 }));
      const [entry] = await store.auditEntries(ok.audit.index, ok.audit.index + 1);
      t.same((await store.getDecision(a, ok.decision.id))?.envelope, entry!.entry.data!.envelope);
      const size = await store.auditSize();
      const write = decisionWrite(a, ag, { amount: 5 });
      const bare: typeof write = {
        ...write,
        build: (ctx) => {
          const built = write.build(ctx);
          return { ...built, parts: { ...built.parts, entry: { ...built.parts.entry, data: {} } } };
        },
      };
      await t.rejects(store.commitDecision(bare), { name: 'StoreError', message: /data\.envelope/ });
      t.equal(await store.auditSize(), size, 'nothing of the refused decision was written');
      t.same(await store.ledgerTotals(a, ag, 60_000, T0), { spent: 0, reserved: 5 }, 'nor its reservation');
    },
  );

  withStore('never overspends under many concurrent reservations', async (t, store) => {
    const a = await tenant(store);
    const ag = await agent(store, a);
    const results = await Promise.all(
      Array.from({ length: 60 }, () => store.commitDecision(decisionWrite(a, ag, { amount: 7, limit: 100 }))),
    );
    const won = results.filter((r) => r.reserved).length;
    t.equal(won, 14, 'floor(100 / 7) reservations fit');
    t.same(await store.ledgerTotals(a, ag, 60_000, T0), { spent: 0, reserved: 98 });
    const indices = results.map((r) => r.audit.index).sort((x, y) => x - y);
    t.same(
      indices,
      Array.from({ length: 60 }, (_, i) => i + 1),
      'audit indices are contiguous and unique',
    );
  });

  withStore(
    'a decision reads its count inside its transaction: concurrent ones keep a limit',
    async (t, store) => {
      // the kernel's cap of open proposals per key (kernel/open-proposals-cap.ts) on the platform's own table
      const a = await tenant(store);
      const ag = await agent(store, a);
      const LIMIT = 3;
      const limited = () => {
        const w = decisionWrite(a, ag);
        return store.commitDecision({
          ...w,
          count: (mark) => ({
            sql: `SELECT COUNT(*) AS n FROM decisions WHERE tenant_id = ${mark(1)}`,
            params: [a],
          }),
          build: (ctx) => {
            if (ctx.count === undefined || ctx.count >= LIMIT) throw new Error(`at the limit (${ctx.count})`);
            return w.build(ctx);
          },
        });
      };
      const results = await Promise.allSettled(Array.from({ length: 10 }, limited));
      t.equal(results.filter((r) => r.status === 'fulfilled').length, LIMIT, 'as many as the limit commit');
      t.ok(
        results.every((r) => r.status === 'fulfilled' || /at the limit \(3\)/.test(String(r.reason))),
        'the others are refused by their build, each having counted the ones before it',
      );
      t.equal(
        await store.auditSize(),
        1 + LIMIT,
        'the registration and the committed decisions: nothing of the refused',
      );
    },
  );

  withStore(
    'settles reservations once: committed counts as spent, released frees the budget',
    async (t, store) => {
      const a = await tenant(store, 'a');
      const b = await tenant(store, 'b');
      const ag = await agent(store, a);
      const w1 = decisionWrite(a, ag, { amount: 40 });
      const w2 = decisionWrite(a, ag, { amount: 30 });
      await store.commitDecision(w1);
      await store.commitDecision(w2);
      const r1 = w1.reservation!.id;
      const r2 = w2.reservation!.id;
      t.equal(await store.settleReservation(b, r1, 'committed'), false, 'another tenant cannot settle it');
      t.equal(await store.settleReservation(a, r1, 'committed'), true);
      t.equal(await store.settleReservation(a, r1, 'released'), false, 'a settled reservation stays settled');
      t.equal(await store.settleReservation(a, r2, 'released'), true);
      t.same(await store.ledgerTotals(a, ag, 60_000, T0), { spent: 40, reserved: 0 });
      t.equal((await store.getReservation(a, r1))?.state, 'committed');
      t.equal(await store.getReservation(b, r1), undefined);
      t.same(
        await store.ledgerTotals(a, ag, 1_000, T0 + 5_000),
        { spent: 0, reserved: 0 },
        'outside the window',
      );
    },
  );

  withStore(
    'the running budget account equals the exact sliding-window sum through reservations, settlements, ' +
      'two window lengths and a clock that steps back',
    async (t, store) => {
      const a = await tenant(store);
      const ag = await agent(store, a);
      // the model: every reservation taken, with its state; the exact sum is what the account must give
      const model: { id: string; amount: number; atMs: number; state: string }[] = [];
      const exact = (windowMs: number, nowMs: number) => {
        const totals = { spent: 0, reserved: 0 };
        for (const r of model) {
          if (r.atMs <= nowMs - windowMs) continue;
          if (r.state === 'committed') totals.spent += r.amount;
          if (r.state === 'reserved') totals.reserved += r.amount;
        }
        return totals;
      };
      let seed = 7;
      const rand = (n: number) => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return Math.floor(seed / 65536) % n; // the high bits: the low bits of an LCG cycle quickly
      };
      let nowMs = T0;
      let mismatches = 0;
      for (let step = 0; step < 120; step++) {
        nowMs += rand(10) === 0 ? -2_000 : rand(3_000); // now and then a replica whose clock is behind
        const windowMs = rand(4) === 0 ? 25_000 : 10_000;
        const open = model.filter((r) => r.state === 'reserved');
        if (open.length > 0 && rand(3) === 0) {
          const r = open[rand(open.length)]!;
          const state = rand(2) === 0 ? 'committed' : 'released';
          t.equal(await store.settleReservation(a, r.id, state), true);
          r.state = state;
        } else {
          const amount = 1 + rand(20);
          const w = decisionWrite(a, ag, { amount, limit: 1e9, windowMs, nowMs });
          const done = await store.commitDecision(w);
          const before = exact(windowMs, nowMs);
          if (done.result.spent !== before.spent || done.result.reservedBefore !== before.reserved)
            mismatches++;
          model.push({ id: w.reservation!.id, amount, atMs: nowMs, state: 'reserved' });
        }
        for (const windowLength of [10_000, 25_000]) {
          const read = await store.ledgerTotals(a, ag, windowLength, nowMs);
          const want = exact(windowLength, nowMs);
          if (read.spent !== want.spent || read.reserved !== want.reserved) mismatches++;
        }
      }
      t.equal(mismatches, 0, 'every read inside and outside a reservation matched the exact sum');
      t.ok(
        model.some((r) => r.state === 'committed') && model.some((r) => r.state === 'released'),
        'the run settled reservations both ways',
      );
    },
  );

  withStore(
    'the budget account refuses a reservation that only the part of the window it advanced past would free',
    async (t, store) => {
      const a = await tenant(store);
      const ag = await agent(store, a);
      const at = (nowMs: number, amount: number) =>
        store.commitDecision(decisionWrite(a, ag, { amount, limit: 100, windowMs: 10_000, nowMs }));
      t.equal((await at(T0, 60)).reserved, true);
      t.equal((await at(T0 + 5_000, 30)).reserved, true);
      t.equal(
        (await at(T0 + 9_999, 20)).reserved,
        false,
        '60 + 30 + 20 > 100 while the first is in the window',
      );
      const later = await at(T0 + 10_000, 20);
      t.equal(later.reserved, true, 'the first reservation left the window at T0 + 10 s');
      t.same(later.result, { reserved: true, spent: 0, reservedBefore: 30 });
      t.equal((await at(T0 + 10_001, 51)).reserved, false, '30 + 20 + 51 > 100');
    },
  );

  withStore('returns recent calls since a time, oldest first, at most the limit', async (t, store) => {
    const a = await tenant(store);
    const ag = await agent(store, a);
    for (let i = 0; i < 5; i++) await store.commitDecision(decisionWrite(a, ag, { nowMs: T0 + i * 1000 }));
    const calls = await store.recentCalls(a, ag, T0 + 1000, 3);
    t.same(
      calls.map((c) => c.atMs),
      [T0 + 2000, T0 + 3000, T0 + 4000],
    );
  });

  withStore(
    'finds the calls the metabolic ledger compares with: same print, same near print, denied same tool',
    async (t, store) => {
      const a = await tenant(store);
      const ag = await agent(store, a);
      const write = (nowMs: number, fingerprint: string, near: string, tool: string, approved: boolean) => {
        const w = decisionWrite(a, ag, { nowMs });
        const build = w.build;
        w.build = (ctx) => {
          const out = build(ctx);
          out.parts.call = {
            ...out.parts.call!,
            fingerprint,
            nearFingerprint: near,
            toolName: tool,
            approved,
          };
          return out;
        };
        return store.commitDecision(w);
      };
      await write(T0 + 1, 'f1', 'n1', 'Payments.Transfer', true); // same print
      await write(T0 + 2, 'f2', 'n1', 'payments.transfer', true); // same near print
      await write(T0 + 3, 'f3', 'n3', 'PAYMENTS.transfer', false); // denied, same tool
      await write(T0 + 4, 'f4', 'n4', 'payments.transfer', true); // unrelated approval
      await write(T0 + 5, 'f5', 'n5', 'other.tool', false); // denied, other tool
      await write(T0 - 100_000, 'f1', 'n1', 'payments.transfer', true); // outside the windows
      const query = {
        fingerprint: 'f1',
        nearFingerprint: 'n1',
        toolName: 'payments.TRANSFER',
        repeatSinceMs: T0,
        deniedSinceMs: T0,
      };
      const calls = await store.relevantCalls(a, ag, { ...query, limit: 10 });
      t.same(
        calls.map((c) => c.fingerprint),
        ['f1', 'f2', 'f3'],
        'oldest first, each once',
      );
      const newest = await store.relevantCalls(a, ag, { ...query, limit: 2 });
      t.same(
        newest.map((c) => c.fingerprint),
        ['f2', 'f3'],
        'the limit keeps the newest',
      );
    },
  );

  withStore(
    'appends audit entries with contiguous indices and the RFC 6962 leaf hash of their JCS bytes',
    async (t, store) => {
      const records = await Promise.all(
        Array.from({ length: 50 }, (_, i) => store.appendAudit(event(`e${i}`))),
      );
      t.same(
        records.map((r) => r.index).sort((x, y) => x - y),
        Array.from({ length: 50 }, (_, i) => i),
      );
      t.equal(await store.auditSize(), 50);
      const entries = await store.auditEntries(10, 20);
      t.equal(entries.length, 10);
      for (const e of entries) {
        t.equal(e.entry.index, e.index);
        t.same(e.leafHash, leafHash(canonicalBytes(e.entry)));
      }
      const hashes = await store.auditLeafHashes(0, 50);
      t.same(hashes[7], records.find((r) => r.index === 7)!.leafHash);
    },
  );

  withStore('refuses an entry built for another index and writes nothing', async (t, store) => {
    await store.appendAudit(event('first'));
    await t.rejects(
      store.appendAudit((index) => ({ ...event('bad')(index), index: index + 5 })),
      {
        code: 'STORE_UNAVAILABLE',
      },
    );
    t.equal(await store.auditSize(), 1);
    const next = await store.appendAudit(event('second'));
    t.equal(next.index, 1, 'the failed write left no gap');
  });

  withStore('records signing keys once and policies per tenant by digest', async (t, store) => {
    const key = {
      kid: '0123456789abcdef',
      role: 'proof',
      publicKey: 'A'.repeat(43),
      name: null,
      notBeforeMs: T0,
      notAfterMs: null,
      createdAtMs: T0,
    };
    t.equal(await store.putSigningKey(key), true);
    t.equal(await store.putSigningKey({ ...key, notBeforeMs: T0 + 1 }), false);
    t.same(await store.listSigningKeys(), [key]);
    const retirement = (note: string) => event(`key.retire.${note}`);
    const size = await store.auditSize();
    t.equal(
      await store.retireSigningKey(key.kid, T0 - 1, retirement('early')),
      undefined,
      'not before the key starts',
    );
    t.equal(await store.auditSize(), size, 'a refused retirement writes nothing');
    const retired = await store.retireSigningKey(key.kid, T0 + 5, retirement('retire'));
    t.equal(retired?.index, size, 'the retirement and its audit entry in one write');
    t.same(await store.listSigningKeys(), [{ ...key, notAfterMs: T0 + 5 }]);
    t.equal(await store.retireSigningKey(key.kid, T0 + 9, retirement('again')), undefined, 'final');
    t.equal(await store.retireSigningKey('f'.repeat(16), T0 + 9, retirement('unknown')), undefined);
    t.equal(await store.auditSize(), size + 1);
    const p = {
      tenantId: '*',
      digest: 'd'.repeat(64),
      policyId: 'p1',
      source: 'f.yaml',
      yamlText: 'x: 1',
      activatedAtMs: T0,
    };
    t.equal(await store.putPolicy(p), true);
    t.equal(await store.putPolicy({ ...p, activatedAtMs: T0 + 1 }), false, 'same digest: no change');
    t.equal(await store.putPolicy({ ...p, digest: 'c'.repeat(64), policyId: 'p2' }), true);
    t.equal((await store.activePolicy('*'))?.policyId, 'p2');
    t.equal(await store.activePolicy('ten_other'), undefined);
  });

  t.test('finishes writes already queued before it closes', async (t) => {
    const store = await open();
    const pending = Array.from({ length: 20 }, (_, i) => store.appendAudit(event(`e${i}`)));
    await store.close();
    const done = await Promise.all(pending);
    t.equal(done.length, 20);
    await t.rejects(store.appendAudit(event('late')), { code: 'STORE_UNAVAILABLE' });
  });
}
