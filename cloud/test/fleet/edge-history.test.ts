/**
 * An upload's command history, over a real app and store (SQLite, and PostgreSQL when reachable): a batch
 * whose signed commands break the rule the offline verifier checks a kit by (@pentagate/protocol
 * stepCommandHistory) — within the batch or against the last command stored — is refused whole with
 * EDGE_HISTORY_INVALID, stores nothing and raises an alarm; an epoch bump (seqs skipped, never reset), vetoes
 * without a command, an edge with an unset (1970) clock and one stamping hours ahead are taken. The attack an outside test found: after commands up to seq 8 in epoch 3, a stolen
 * edge key uploaded seq 1 in epoch 0 stamped a year ahead, the cloud stored it, and every kit exported
 * after it failed `verify kit`.
 */
import type { EdgeAuditRecord } from '@pentagate/protocol';
import t, { type Test } from 'tap';
import type { Store } from '../../src/store/store.js';
import { bearer, type TestCloud, testCloud } from '../helpers/cloud-app.js';
import { digestOf, GENESIS, passedGates } from '../helpers/edge-records.js';
import { testRobot } from '../helpers/fleet.js';
import { openTestPostgres, requirePostgres } from '../helpers/postgres.js';

type Verdict = EdgeAuditRecord['verdict'];
/** A record's command and times; a spec without seq is a veto. */
interface Spec {
  seq?: number;
  epoch?: number;
  atMs?: number;
  appendedAtMs?: number;
}

const T0 = 1_700_000_000_000;
const YEAR_MS = 365 * 24 * 3_600_000;
const RECORDS = (robotId: string) => `/api/v1/fleet/robots/${robotId}/records`;

/** A chain of `robotId` from record 0, one record per spec, chained as an edge's outbox chains them. */
function chainOf(robotId: string, specs: readonly Spec[]): EdgeAuditRecord[] {
  const out: EdgeAuditRecord[] = [];
  let prev = GENESIS;
  specs.forEach((s, index) => {
    const verdict: Verdict = {
      v: 1,
      robotId,
      intentId: `intent-${index}`,
      outcome: s.seq === undefined ? 'vetoed' : 'signed',
      atMs: s.atMs ?? T0 + index,
      violations: [],
      gates: s.seq === undefined ? [] : passedGates(),
      ...(s.seq === undefined ? {} : { commandSeq: s.seq }),
      ...(s.epoch === undefined ? {} : { commandEpoch: s.epoch }),
    };
    const record: EdgeAuditRecord = {
      v: 1,
      index,
      appendedAtMs: s.appendedAtMs ?? T0 + index,
      prevDigest: prev,
      verdict,
    };
    out.push(record);
    prev = digestOf(record);
  });
  return out;
}

/** Commands seq from..to (inclusive) in one epoch. */
const commands = (from: number, to: number, epoch: number): Spec[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ seq: from + i, epoch }));

async function suite(t: Test, open: () => Promise<Store | undefined>): Promise<void> {
  const fresh = async (t: Test): Promise<{ cloud: TestCloud; key: string }> => {
    const store = await open();
    const cloud = await testCloud(t, store ? { store } : {});
    return { cloud, key: await testRobot(cloud, cloud.a, 'ur5e-01') };
  };
  const poster = (cloud: TestCloud, key: string) => (records: EdgeAuditRecord[]) =>
    cloud.app.inject({ method: 'POST', url: RECORDS('ur5e-01'), headers: bearer(key), payload: { records } });
  const acknowledged = async (cloud: TestCloud, key: string) =>
    (
      await cloud.app.inject({ method: 'GET', url: '/api/v1/fleet/robots/ur5e-01/ack', headers: bearer(key) })
    ).json().acknowledged as number;
  const shipped = async (cloud: TestCloud) =>
    (await cloud.store.auditEntries(0, await cloud.store.auditSize())).filter(
      (e) => e.entry.type === 'edge.verdict',
    ).length;

  t.test('the attack: seq 1 of epoch 0, stamped a year ahead, after seq 8 of epoch 3', async (t) => {
    const { cloud, key } = await fresh(t);
    const post = poster(cloud, key);
    const history: Spec[] = [...commands(1, 5, 2), ...commands(6, 8, 3)];
    const genuine = chainOf('ur5e-01', history);
    t.equal((await post(genuine)).statusCode, 200, 'the genuine history is taken');

    const now = Date.now();
    const attack = chainOf('ur5e-01', [
      ...history,
      { seq: 1, epoch: 0, atMs: 1, appendedAtMs: now + YEAR_MS },
      { seq: 2, epoch: 0, atMs: 0, appendedAtMs: now + YEAR_MS },
    ]).slice(8);
    const refused = await post(attack);
    t.equal(refused.statusCode, 409);
    t.equal(refused.json().error.code, 'EDGE_HISTORY_INVALID');
    t.match(
      refused.json().error.message,
      /record 8 \(position 0 of the batch\) breaks the robot's command history: command seq 1 after seq 8/,
      'refused for its commands; its times are not judged',
    );

    // the same history stamped in the past is refused alike, against the stored head
    const inTime = chainOf('ur5e-01', [
      ...history,
      { seq: 1, epoch: 0, atMs: 1 },
      { seq: 2, epoch: 0 },
    ]).slice(8);
    const backwards = await post(inTime);
    t.equal(backwards.statusCode, 409);
    t.equal(backwards.json().error.code, 'EDGE_HISTORY_INVALID');
    t.match(
      backwards.json().error.message,
      /record 8 \(position 0 of the batch\) breaks the robot's command history: command seq 1 after seq 8 \(seqs must strictly increase\); epoch 0 after epoch 3 \(epochs never go back\)/,
    );
    t.same(backwards.json().error.details, {
      acknowledged: 8,
      headDigest: digestOf(genuine[7] as EdgeAuditRecord),
    });
    t.equal(await acknowledged(cloud, key), 8, 'nothing was stored');
    t.equal(await shipped(cloud), 8, 'no record reached the audit log');

    const entries = (await cloud.store.auditEntries(0, await cloud.store.auditSize())).map((e) => e.entry);
    t.same(
      entries.filter((e) => e.type === 'refusal').map((e) => e.data.code),
      ['EDGE_HISTORY_INVALID', 'EDGE_HISTORY_INVALID'],
      'both refusals are in the audit log',
    );
    const metrics = await cloud.app.inject({ method: 'GET', url: '/metrics' });
    t.match(
      metrics.body,
      /pentagate_fleet_chain_alarms_total\{kind="history"\} 2/,
      'each raised as an alarm',
    );

    const next = chainOf('ur5e-01', [...history, { seq: 9, epoch: 3 }]).slice(8);
    t.equal((await post(next)).json().stored, 1, 'the genuine continuation is still taken');
  });

  t.test('the command rule within one batch and across batches', async (t) => {
    const { cloud, key } = await fresh(t);
    const post = poster(cloud, key);
    const refusal = async (specs: Spec[], from: number, pattern: RegExp, what: string) => {
      const res = await post(chainOf('ur5e-01', specs).slice(from));
      t.same([res.statusCode, res.json().error?.code], [409, 'EDGE_HISTORY_INVALID'], what);
      t.match(res.json().error?.message, pattern, `${what}: the message names the record and the rule`);
    };
    const base = commands(1, 4, 1);
    await refusal(
      [...base, { seq: 3, epoch: 1 }],
      0,
      /record 4 \(position 4 of the batch\).*command seq 3 after seq 4/,
      'a seq going back inside a batch',
    );
    t.equal(await acknowledged(cloud, key), 0, 'refused whole: not even the valid records before it');
    t.equal((await post(chainOf('ur5e-01', base))).statusCode, 200);
    await refusal(
      [...base, { seq: 4, epoch: 1 }],
      4,
      /command seq 4 after seq 4/,
      'a seq repeated across batches',
    );
    await refusal(
      [...base, { seq: 6, epoch: 1 }],
      4,
      /seq 6 follows seq 4 in epoch 1: a hole of 1 command/,
      'a hole',
    );
    await refusal([...base, { seq: 5, epoch: 0 }], 4, /epoch 0 after epoch 1/, 'an epoch going back');
    await refusal([...base, { seq: 5 }], 4, /command seq 5 carries no epoch/, 'a seq without an epoch');
    await refusal(
      [...base, { seq: 1, epoch: 2 }],
      4,
      /command seq 1 after seq 4/,
      'an epoch bump does not reset seqs (the edge never reuses one)',
    );
    t.equal(await acknowledged(cloud, key), 4, 'none of them stored anything');
    t.equal(await shipped(cloud), 4);
  });

  t.test('legitimate histories are taken', async (t) => {
    const { cloud, key } = await fresh(t);
    const post = poster(cloud, key);
    const specs: Spec[] = [
      {},
      {},
      ...commands(1, 3, 0),
      {},
      // a protective STOP bumps the epoch; a restart jumps past the previous seq reservation
      ...commands(4, 5, 1),
      ...commands(100, 102, 4),
      {},
      { seq: 103, epoch: 4, atMs: 0, appendedAtMs: 1 },
      // an edge whose clock keeps local time (UTC+2): its records are hours ahead, and still evidence
      { seq: 104, epoch: 4, appendedAtMs: Date.now() + 2 * 3_600_000 },
    ];
    const chain = chainOf('ur5e-01', specs);
    const batches = [
      [0, 2],
      [2, 6],
      [6, 9],
      [9, 10],
      [10, 14],
    ] as const;
    for (const [from, to] of batches) {
      const res = await post(chain.slice(from, to));
      t.same([res.statusCode, res.json().stored], [200, to - from], `records ${from}..${to - 1} are taken`);
    }
    t.equal((await post(chain.slice(3, 12))).json().duplicates, 9, 'a resend is still a duplicate');
    const vetoAfter = chainOf('ur5e-01', [...specs, {}, { seq: 105, epoch: 4 }]).slice(14);
    t.equal((await post(vetoAfter)).json().stored, 2, 'vetoes between commands do not break the history');
    t.equal(await shipped(cloud), 16);
  });

  t.test('a verdict that contradicts itself is refused: "signed" beside a failed gate', async (t) => {
    // outside review: such a record was stored, and `verify kit` called the history valid
    const { cloud, key } = await fresh(t);
    const post = poster(cloud, key);
    const [good, forged] = chainOf('ur5e-01', commands(1, 2, 1));
    const risk = forged!.verdict.gates.find((g) => g.vertex === 'RISK')!;
    risk.passed = false;
    risk.violations = ['RISK.HUMAN_IN_RADIUS: human at 0.20 m < radius 1.20 m'];
    const refused = await post([good!, forged!]);
    t.equal(refused.statusCode, 409);
    t.equal(refused.json().error.code, 'EDGE_HISTORY_INVALID');
    t.match(
      refused.json().error.message,
      /record 1 contradicts itself: a signed verdict with failed gates: RISK/,
    );
    t.equal(await acknowledged(cloud, key), 0, 'nothing of the batch was stored');
    t.equal((await post([good!])).statusCode, 200, 'the consistent record alone is taken');
  });
}

t.test('SQLite', async (t) => {
  await suite(t, async () => undefined);
});

t.test('PostgreSQL', async (t) => {
  if (!(await requirePostgres(t))) return;
  await suite(t, async () => openTestPostgres(t));
});
