/**
 * The decision row's verdict JSON (stored-verdict.ts): what it leaves out because the row or the replay input
 * holds it is put back on reading, field for field, and a record written in full reads as written.
 */
import t from 'tap';
import type { DecisionBody } from '../../src/kernel/decide.js';
import type { KernelDecisionRecord } from '../../src/kernel/replay-input.js';
import { type KernelVerdict, readStoredVerdict, storedVerdict } from '../../src/kernel/stored-verdict.js';
import type { DecisionRecord } from '../../src/store/records.js';

const POLICY = 'a'.repeat(64);
const ROW = { id: 'prp_1', tenantId: 'ten_1', agentId: 'agt_1' };
const ARGS = { recipient: 'DE89 3704', amount: 20, currency: 'USD' };

function verdict(opts: {
  sharedArguments: boolean;
  bodyDigest?: string;
  citedDigest?: string;
}): KernelVerdict {
  const decision: DecisionBody = {
    proposalId: 'prp_1',
    status: 'ALLOW',
    violations: [],
    expiresAt: '2026-01-01T00:05:00.000Z',
    policyDigest: opts.bodyDigest ?? POLICY,
  };
  const kernel: KernelDecisionRecord = {
    input: {
      v: 1,
      proposalId: 'prp_1',
      action: {
        type: 'tool:invoke',
        payload: {
          tool: 'payments.transfer',
          arguments: opts.sharedArguments ? ARGS : { ...ARGS },
          spendAmount: 20,
        },
        context: { agentId: 'agt_1', confidenceScore: 0.9 },
      },
      governed: {
        lobeName: 'billing@1',
        toolName: 'payments.transfer',
        arguments: ARGS,
        spendAmount: 20,
        callDepth: 0,
        dataProvenance: [],
      },
      agent: {
        agentId: 'agt_1',
        accountId: 'agt_0',
        lobeName: 'billing@1',
        domain: 'FINANCE',
        tenantId: 'ten_1',
      },
      ledger: { budgetLimit: 100, spentInWindow: 0, reservedInWindow: 0, windowMs: 60_000 },
      history: [],
      nowMs: 1_767_225_600_000,
      settings: {
        minConfidence: 0.5,
        policyUpdateHoldMs: 600_000,
        bulkExportRecords: 1000,
        executeTtlMs: 300_000,
        approvalTtlMs: 3_600_000,
      },
      policyDigest: POLICY,
    },
    origin: { route: 'agentgate.propose', subjectName: 'agentgate.propose:payments.transfer' },
    reservationId: 'res_1',
    policy: { id: 'acme', digest: opts.citedDigest ?? POLICY },
  };
  return { reason: 'approved', decision, kernel };
}

/** The record as the store hands it back: the JSON text parsed, beside the row's columns. */
function row(stored: Record<string, unknown>): DecisionRecord {
  return {
    id: 'prp_1',
    tenantId: 'ten_1',
    agentId: 'agt_1',
    outcome: 'ALLOW',
    approved: true,
    createdAtMs: 1_767_225_600_000,
    subjectDigest: 'b'.repeat(64),
    policyDigest: POLICY,
    reservedAmount: 20,
    auditIndex: 3,
    envelope: {},
    verdict: JSON.parse(JSON.stringify(stored)),
  };
}

t.test('leaves out the row columns, the second policy digests and the shared arguments', async (t) => {
  const text = JSON.stringify(storedVerdict(verdict({ sharedArguments: true }), ROW));
  t.notMatch(text, 'prp_1', 'no proposal id');
  t.notMatch(text, 'ten_1', 'no tenant id');
  t.equal(text.split(POLICY).length - 1, 1, 'the policy digest once');
  t.equal(text.split('DE89 3704').length - 1, 1, 'the arguments once');
});

t.test('reads back every field of the decision as it was decided', async (t) => {
  for (const opts of [
    { sharedArguments: true },
    { sharedArguments: false },
    { sharedArguments: true, bodyDigest: 'c'.repeat(64) },
    { sharedArguments: true, citedDigest: 'd'.repeat(64) },
  ]) {
    const v = verdict(opts);
    t.same(readStoredVerdict(row(storedVerdict(v, ROW))), v, JSON.stringify(opts));
  }
});

t.test('keeps the ids that differ from the row and every other field of the agent', async (t) => {
  const v = verdict({ sharedArguments: true });
  const other = { id: 'prp_2', tenantId: 'ten_2', agentId: 'agt_2' };
  const text = JSON.stringify(storedVerdict(v, other));
  for (const id of ['prp_1', 'ten_1', 'agt_1', 'agt_0']) t.match(text, id, `${id} is written`);
  t.same(readStoredVerdict({ ...row(storedVerdict(v, other)), ...other }), v);
});

t.test('reads a verdict written in full (every copy present) as written', async (t) => {
  const v = verdict({ sharedArguments: true });
  t.same(
    readStoredVerdict(row({ status: 'ALLOW', reason: v.reason, decision: v.decision, kernel: v.kernel })),
    v,
  );
});

t.test('a kernel proposal (no governed form, no arguments) is stored and read as it is', async (t) => {
  const v = verdict({ sharedArguments: false });
  delete v.kernel.input.governed;
  delete v.kernel.origin;
  v.kernel.input.action = {
    type: 'ledger:write',
    payload: { amount: 5 },
    context: { agentId: 'agt_1', confidenceScore: 0.9 },
  };
  const stored = storedVerdict(v, ROW);
  t.notMatch(JSON.stringify(stored), 'argumentsInGoverned');
  t.same(readStoredVerdict(row(stored)), v);
  t.notOk('arguments' in (readStoredVerdict(row(stored))!.kernel.input.action.payload as object));
});

t.test('a row with no kernel part is no kernel decision', async (t) => {
  t.equal(readStoredVerdict(row({ approved: true })), undefined);
});
