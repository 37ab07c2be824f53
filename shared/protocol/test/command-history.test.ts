/**
 * The signed-command history rule the offline verifier and the cloud's ingest share: seqs strictly
 * increase, epochs never go back, no hole inside an epoch, a command carries its epoch; vetoes take no part.
 */
import t from 'tap';
import { type CommandHistory, stepCommandHistory } from '../src/index.js';

function run(commands: { commandSeq?: number; commandEpoch?: number }[]): string[] {
  let history: CommandHistory = {};
  const problems: string[] = [];
  for (const c of commands) {
    const step = stepCommandHistory(history, c);
    problems.push(...step.problems);
    history = step.next;
  }
  return problems;
}

t.test('legitimate histories break no rule', async (t) => {
  t.same(run([]), []);
  t.same(
    run([{}, { commandSeq: 1, commandEpoch: 0 }, {}, { commandSeq: 2, commandEpoch: 0 }]),
    [],
    'vetoes between',
  );
  t.same(
    run([
      { commandSeq: 1, commandEpoch: 0 },
      { commandSeq: 2, commandEpoch: 1 },
      { commandSeq: 500, commandEpoch: 9 },
    ]),
    [],
    'seqs may be skipped across an epoch bump, and epochs skipped',
  );
  t.same(stepCommandHistory({ lastSeq: 4, lastEpoch: 2 }, {}).next, { lastSeq: 4, lastEpoch: 2 }, 'a veto');
});

t.test('each rule, named', async (t) => {
  const after = (history: CommandHistory, commandSeq?: number, commandEpoch?: number) =>
    stepCommandHistory(history, { commandSeq, commandEpoch }).problems;
  t.same(after({ lastSeq: 8, lastEpoch: 3 }, 1, 0), [
    'command seq 1 after seq 8 (seqs must strictly increase)',
    'epoch 0 after epoch 3 (epochs never go back)',
  ]);
  t.same(after({ lastSeq: 8, lastEpoch: 3 }, 8, 3), [
    'command seq 8 after seq 8 (seqs must strictly increase)',
  ]);
  t.same(after({ lastSeq: 8, lastEpoch: 3 }, 1, 4), [
    'command seq 1 after seq 8 (seqs must strictly increase)',
  ]);
  t.same(after({ lastSeq: 8, lastEpoch: 3 }, 11, 3), [
    'seq 11 follows seq 8 in epoch 3: a hole of 2 command(s)',
  ]);
  t.same(after({ lastSeq: 8, lastEpoch: 3 }, 9), [
    'command seq 9 carries no epoch, so its continuity cannot be shown',
  ]);
  t.same(stepCommandHistory({ lastSeq: 8, lastEpoch: 3 }, { commandSeq: 9 }).next, {
    lastSeq: 9,
    lastEpoch: 3,
  });
});
