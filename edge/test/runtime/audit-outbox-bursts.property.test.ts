/**
 * Property: under concurrent bursts of appends — some started while an earlier batch is still being written
 * and synced — every record gets the next index in append order, the file reopens after each burst (a
 * restart) with an unbroken chain, and a torn tail left by a crash is still cut off and kept aside.
 */
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import fc from 'fast-check';
import t from 'tap';
import { AuditOutbox } from '../../src/outbox/audit-outbox.js';
import type { OutboxRecord } from '../../src/outbox/outbox-record.js';
import { sampleVerdict } from './helpers/verdicts.js';

/** One burst: groups of appends, each group started after `pauses` event-loop turns (a batch may be in flight). */
const burstArb = fc.array(
  fc.record({ appends: fc.integer({ min: 1, max: 25 }), pauses: fc.integer({ min: 0, max: 3 }) }),
  { minLength: 1, maxLength: 6 },
);

t.test('indexes follow append order across concurrent bursts and restarts', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-outbox-bursts-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(burstArb, { minLength: 1, maxLength: 4 }),
      fc.boolean(),
      async (bursts, torn) => {
        const path = join(dir, `outbox-${run++}.jsonl`);
        let expected = 0;
        for (const burst of bursts) {
          const outbox = await AuditOutbox.open(path);
          if (outbox.count !== expected)
            throw new Error(`reopened with ${outbox.count} records, wrote ${expected}`);
          const appended: Promise<OutboxRecord>[] = [];
          for (const group of burst) {
            for (let p = 0; p < group.pauses; p++) await nextTurn();
            for (let i = 0; i < group.appends; i++)
              appended.push(outbox.append(sampleVerdict(expected + appended.length)));
          }
          const records = await Promise.all(appended);
          records.forEach((r, i) => {
            if (r.index !== expected + i) throw new Error(`append ${expected + i} got index ${r.index}`);
          });
          expected += records.length;
          const back = await outbox.read(0, expected);
          if (back.some((r, i) => r.index !== i)) throw new Error('read-back indexes out of order');
          await outbox.close();
        }
        if (torn) await appendFile(path, '{"v":1,"index":');
        const reopened = await AuditOutbox.open(path);
        try {
          if (reopened.count !== expected)
            throw new Error(`final count ${reopened.count}, wrote ${expected}`);
          if (torn !== (reopened.repair !== undefined))
            throw new Error('a torn tail must be repaired, and only then');
        } finally {
          await reopened.close();
        }
      },
    ),
    { numRuns: 40 },
  );
  t.pass('every run kept append order, reopened cleanly and repaired a torn tail');
});
