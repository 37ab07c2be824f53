/**
 * An intent of 500 points, every one over every torque limit, made a veto listing ~3,000 violations: a
 * verdict larger than the embedded broker's packet limit (the broker dropped the edge's connection and
 * mqtt.js re-sent the verdict on every reconnect, so no STOP could leave) and larger than the verdict schema
 * and the cloud's ingest accept. A verdict now lists at most MAX_LISTED_VIOLATIONS per gate and in all, the
 * last line counting the rest; the decision is the same.
 */
import { VerdictEventSchema, conforms } from '@pentagate/protocol';
import t from 'tap';
import { DEFAULT_MAX_PACKET_BYTES } from '../../src/broker/embedded-broker.js';
import { MAX_LISTED_VIOLATIONS } from '../../src/trap/verdicts.js';
import { HOME, T0, armIntent, feedHealthy, makeGate } from './fixtures.js';

t.test('a veto of thousands of violations lists a bounded number and counts the rest', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  const points = Array.from({ length: 500 }, (_, i) => ({
    positionsRad: HOME.map((q, j) => (j === 0 ? q + (i % 2) * 0.001 : q)),
    effortsNm: HOME.map(() => 999),
    timeFromStartMs: 100 * (i + 1),
  }));
  const result = gate.trapAndSign(armIntent({ points }), T0);
  t.equal(result.kind, 'veto');
  const v = result.verdict;
  t.equal(v.outcome, 'vetoed');
  t.equal(v.violations.length, MAX_LISTED_VIOLATIONS);
  t.match(v.violations[0], /^INVARIANT\.PLANNED_TORQUE: /);
  t.match(v.violations.at(-1), /^[A-Z]+\.[A-Z_]+: and \d+ more violations not listed \(\d+ in all\)$/);
  const all = Number(/\((\d+) in all\)/.exec(v.violations.at(-1)!)?.[1]);
  t.ok(all >= 3000, `${all} violations in all`);
  for (const g of v.gates) t.ok(g.violations.length <= MAX_LISTED_VIOLATIONS, `${g.vertex}: bounded`);
  t.ok(conforms(VerdictEventSchema, v), 'the verdict conforms to its schema (the cloud ingests it)');
  const bytes = Buffer.byteLength(JSON.stringify(v));
  t.ok(bytes < DEFAULT_MAX_PACKET_BYTES / 2, `${bytes} bytes: well inside the broker's packet limit`);
});
