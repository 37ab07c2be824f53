/**
 * Robot histories in an audit kit: shipped edge records must form an unbroken chain per robot and a
 * signed-command history without holes (seq +1 inside an epoch, epochs never back). Each failure below is
 * one thing a cloud or an edge could get wrong, and `verify kit` names it.
 */
import { MerkleTree, TrustStore, sha256Hex } from '@pentagate/crypto';
import {
  type AuditEntry,
  canonicalBytes,
  canonicalize,
  type EdgeAuditRecord,
  VERTICES,
} from '@pentagate/protocol';
import { verifyAuditKit } from '@pentagate/verifier';
import t, { type Test } from 'tap';
import { T0_MS, buildLog, tempDir, trustDocument, writeKit } from './fixtures/artifacts.js';

const trust = TrustStore.fromDocument(trustDocument());

/** Records of one robot: [seq, epoch] per signed command, undefined for a verdict without a command. */
function records(robotId: string, commands: ([number, number] | undefined)[]): EdgeAuditRecord[] {
  let prev = sha256Hex(new Uint8Array(0));
  return commands.map((command, index) => {
    const record: EdgeAuditRecord = {
      v: 1,
      index,
      appendedAtMs: T0_MS + index,
      prevDigest: prev,
      verdict: {
        v: 1,
        robotId,
        outcome: command ? 'signed' : 'vetoed',
        atMs: T0_MS + index,
        violations: [],
        gates: command
          ? VERTICES.map((vertex) => ({ vertex, passed: true, violations: [], evidence: {} }))
          : [],
        ...(command ? { commandSeq: command[0], commandEpoch: command[1] } : {}),
      },
    };
    prev = sha256Hex(canonicalize(record));
    return record;
  });
}

async function verifyWith(t: Test, shipped: EdgeAuditRecord[][]) {
  const log = buildLog(3);
  const tree = new MerkleTree();
  for (const e of log.entries) tree.append(canonicalBytes(e));
  for (const robotRecords of shipped) {
    for (const record of robotRecords) {
      const entry: AuditEntry = {
        v: 1,
        index: log.entries.length,
        type: 'edge.verdict',
        at: new Date(T0_MS + 5000).toISOString(),
        tenantId: 'tenant-a',
        actor: `edge:${record.verdict.robotId}`,
        subjectDigest: sha256Hex(canonicalize(record)),
        data: { robotId: record.verdict.robotId, record },
      };
      log.entries.push(entry);
      tree.append(canonicalBytes(entry));
    }
  }
  const dir = await writeKit(await tempDir(t), { ...log, tree });
  return verifyAuditKit(dir, { trust, atMs: T0_MS + 20_000 });
}

t.test('a history without holes verifies and is described', async (t) => {
  const report = await verifyWith(t, [
    records('arm-1', [[1, 1], [2, 1], undefined, [3, 2], [4, 2], [2000, 1025], [2001, 1025]]),
    records('arm-2', [undefined, [7, 3]]),
  ]);
  t.equal(report.valid, true, report.failures.join('\n'));
  t.match(
    report.checks.find((c) => c.name === 'robot history arm-1')?.detail,
    'records 0..6 chained, 6 signed commands, seq 1..2001 over 3 epoch(s), no holes',
  );
  t.ok(report.checks.find((c) => c.name === 'robot history arm-2')?.ok);
});

t.test('a command missing inside an epoch is a hole', async (t) => {
  const report = await verifyWith(t, [
    records('arm-1', [
      [1, 1],
      [2, 1],
      [4, 1],
    ]),
  ]);
  t.equal(report.valid, false);
  t.match(report.failures.join('\n'), /seq 4 follows seq 2 in epoch 1: a hole of 1 command/);
});

t.test('a reused seq and an epoch going back are refused', async (t) => {
  const report = await verifyWith(t, [
    records('arm-1', [
      [5, 2],
      [5, 3],
      [6, 1],
    ]),
  ]);
  t.match(report.failures.join('\n'), /seq 5 after seq 5/);
  t.match(report.failures.join('\n'), /epoch 1 after epoch 3/);
});

t.test('a dropped record breaks the chain', async (t) => {
  const all = records('arm-1', [
    [1, 1],
    [2, 1],
    [3, 1],
  ]);
  const report = await verifyWith(t, [[all[0]!, all[2]!]]);
  t.match(report.failures.join('\n'), /record 2 where 1 was expected/);
  t.match(report.failures.join('\n'), /does not chain to the record before it/);
});

t.test('a verdict that contradicts itself fails its robot history', async (t) => {
  // outside review: records chained by digest and uploaded with the edge key, saying "signed" beside a RISK
  // gate that failed, were reported VALID
  const chain = (edit: (v: EdgeAuditRecord['verdict']) => void) => {
    const [record] = records('arm-1', [[1, 1]]);
    edit(record!.verdict);
    return [record!];
  };
  const cases: [string, (v: EdgeAuditRecord['verdict']) => void, RegExp][] = [
    [
      'a failed gate',
      (v) => {
        const risk = v.gates.find((g) => g.vertex === 'RISK')!;
        risk.passed = false;
        risk.violations = ['RISK.HUMAN_IN_RADIUS: human at 0.20 m < radius 1.20 m'];
        v.violations = [...risk.violations];
      },
      /a signed verdict with failed gates: RISK/,
    ],
    ['no gates', (v) => (v.gates = []), /must report each of the five gates once, got none/],
    ['a gate twice', (v) => (v.gates[4] = { ...v.gates[0]! }), /five gates once, got INVARIANT, .*INVARIANT/],
    [
      'a violation listed',
      (v) => (v.violations = ['CONSENT.REQUIRED: x']),
      /lists violations: CONSENT\.REQUIRED/,
    ],
    ['a veto with a command', (v) => (v.outcome = 'vetoed'), /a vetoed verdict names command seq 1/],
  ];
  for (const [name, edit, why] of cases) {
    const report = await verifyWith(t, [chain(edit)]);
    t.equal(report.valid, false, name);
    t.match(report.failures.join('\n'), why, name);
  }
  t.equal((await verifyWith(t, [chain(() => {})])).valid, true, 'unedited, the same record verifies');
});
