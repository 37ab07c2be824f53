/**
 * The demo's closing line of a round: expectations held, expectations failed, and a move vetoed because nobody
 * granted its consent (--manual-consent with the person at the terminal letting it wait), which is the gate
 * working and is said so rather than reported as failures.
 */
import type { VerdictEvent } from '@pentagate/protocol';
import t from 'tap';
import { roundOutcome } from '../src/cli/round-outcome.js';
import type { ScenarioTrace } from '../src/runner/trace.js';

const trace = (outcomes: [string, string][]) =>
  ({
    verdicts: outcomes.map(([intentId, outcome]) => ({
      receivedAtMs: 0,
      verdict: { intentId, outcome } as unknown as VerdictEvent,
    })),
  }) as unknown as ScenarioTrace;

const held = { name: 'vetoed sweep', ok: true, detail: '' };
const liftNotRun = { name: 'executed lift', ok: false, detail: 'never executed' };

t.test('every expectation held', async (t) => {
  t.equal(roundOutcome(1, { expectations: [held], trace: trace([]) }), '— round 1: all 1 expectations held');
});

t.test('a move vetoed for want of consent is said so', async (t) => {
  const line = roundOutcome(2, {
    expectations: [held, liftNotRun],
    trace: trace([
      ['lift', 'awaiting-consent'],
      ['lift', 'consent-expired'],
    ]),
  });
  t.match(line, /^— round 2: no consent was granted in time for lift, so the edge vetoed it/);
  t.match(line, /executed lift \(never executed\)/);
  t.notMatch(line, /failed/);
});

t.test('any other failure is a failure', async (t) => {
  const sweepNotVetoed = { name: 'vetoed sweep', ok: false, detail: 'signed' };
  t.equal(
    roundOutcome(3, {
      expectations: [sweepNotVetoed, liftNotRun],
      trace: trace([['lift', 'consent-expired']]),
    }),
    '— round 3: 2 expectation(s) failed: vetoed sweep (signed); executed lift (never executed)',
  );
  t.equal(
    roundOutcome(4, { expectations: [liftNotRun], trace: trace([]) }),
    '— round 4: 1 expectation(s) failed: executed lift (never executed)',
  );
});
