/**
 * Over the real embedded broker and real sockets: no telemetry frame can lock a source out. A forged frame
 * with a huge seq makes the source stale (never "nobody present"), and the real sensor is trusted again after
 * a consistent run of frames; a sensor that restarts at seq 1 stops the motion in progress and is back after
 * the same run, without restarting the edge; a flood of refusals is summarised in the outbox.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { MotorCommand, VerdictEvent } from '@pentagate/protocol';
import t from 'tap';
import { REANCHOR_FRAMES } from '../../src/telemetry/source-sequence.js';
import { freshArmCell } from './helpers/fresh-arm-cell.js';

t.test('a seq jump or a sensor restart makes the source stale, then it recovers', async (t) => {
  const { fixture, topics, edge, inbox, publish, decide } = await freshArmCell(t);
  const proximity = (seq: number, humanM: number | null) =>
    publish(topics.telemetry('proximity'), fixture.proximityFrame(seq, Date.now(), humanM));
  const PERIOD_MS = 30;
  /**
   * The real sensor at its period from `seq` until the edge takes it again: a run re-anchors once it outlasts
   * 1.5 of the sensor's recorded periods (source-sequence.ts). Each probe intent until then is vetoed as
   * re-synchronising; the first that is not is returned.
   */
  const recover = async (seq: number, humanM: number, probe: string) => {
    for (let attempt = 1; attempt <= 40; attempt++) {
      for (let i = 0; i < REANCHOR_FRAMES; i++) {
        await proximity(seq++, humanM);
        await sleep(PERIOD_MS);
      }
      const v = await decide(`${probe}-${attempt}`);
      if (!v.violations.join('\n').includes('re-synchronising'))
        return { verdict: v, intentId: `${probe}-${attempt}`, seq };
    }
    throw new Error('the real sensor was never taken again');
  };

  for (const frame of fixture.passingFrames(1, Date.now()))
    await publish(topics.telemetry(frame.source), frame);
  // The sensor's period goes on record (the edge times a re-anchoring run against it).
  for (let seq = 2; seq <= 5; seq++) {
    await sleep(PERIOD_MS);
    await proximity(seq, null);
  }
  t.equal((await decide('healthy')).outcome, 'signed', 'healthy telemetry: signed');
  await inbox.next<MotorCommand>(topics.cmd, (c) => c.intentId === 'healthy');

  // A forged frame with a huge seq and "nobody present", while the real sensor sees a person inside the radius.
  await proximity(1e12, null);
  const forgedStop = await inbox.next<VerdictEvent>(topics.verdict, (v) => v.outcome === 'stopped');
  t.match(forgedStop.violations.join('\n'), /RISK\.STALE_DATA: proximity\/proximity broke its seq/);
  const stopOfHealthy = await inbox.next<MotorCommand>(topics.cmd, (c) => c.setpoints.kind === 'stop');
  t.equal(stopOfHealthy.intentId, 'healthy', 'the forged frame stops the running motion (stale source)');
  await proximity(6, 0.5);
  const meanwhile = await decide('during-resync');
  t.equal(meanwhile.outcome, 'vetoed', 'never signed on the forged frame');
  t.match(meanwhile.violations.join('\n'), /RISK\.STALE_DATA: .*re-synchronising/);
  const person = await recover(7, 0.5, 'person-inside');
  t.equal(person.verdict.outcome, 'vetoed');
  t.match(
    person.verdict.violations.join('\n'),
    /RISK\.HUMAN_IN_RADIUS: human at 0\.50 m/,
    'the real sensor is back',
  );

  // The person leaves; a move starts; then the sensor restarts at seq 1: the motion is stopped.
  await proximity(person.seq, 4);
  t.equal((await decide('before-restart')).outcome, 'signed');
  await inbox.next<MotorCommand>(topics.cmd, (c) => c.intentId === 'before-restart');
  await proximity(1, 4);
  const restartStop = await inbox.next<MotorCommand>(topics.cmd, (c) => c.setpoints.kind === 'stop');
  t.equal(restartStop.intentId, 'before-restart', 'the running motion is stopped at the restart');
  const after = await recover(2, 4, 'after-restart');
  t.equal(after.verdict.outcome, 'signed', 'recovered without restarting the edge');

  // A flood of refused frames from one source: counted, summarised, not one outbox record each.
  await edge.node.settled();
  const before = edge.outbox.count;
  const flood = 200;
  for (let i = 0; i < flood; i++) await proximity(1, 4);
  await edge.node.settled();
  t.ok(edge.outbox.count - before <= 1, `${edge.outbox.count - before} outbox records for ${flood} refusals`);
  await edge.stop('test over');
  const summary = await inbox.next<VerdictEvent>(topics.verdict, (v) =>
    (v.violations[0] ?? '').includes('summarised'),
  );
  t.match(
    summary.violations[0],
    /^INPUT\.TELEMETRY_OUT_OF_ORDER: \d+ more refused from pentagate\/v1\/r1\/telemetry\/proximity/,
  );
  const counted = Number(/: (\d+) more/.exec(summary.violations[0]!)![1]);
  t.ok(counted >= flood - REANCHOR_FRAMES - 1, `the summary counts the flood (${counted})`);
});
