/**
 * The edge's own recording (`edge run --record`) replays in file order, the order the live gate took its inputs
 * in, even where the node's wall clock stepped back (an NTP correction): a person seen, then an intent logged
 * 10 ms "earlier" is vetoed on replay as it was live.
 */
import { join } from 'node:path';
import { robotTopics } from '@pentagate/protocol';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { VerdictRecorder } from '../../src/mcap/verdict-recorder.js';
import { T0, armIntent, battery, firmware, jointState, makeGate, proximity } from '../trap/fixtures.js';

t.test('own recording: inputs replay in file order across a clock step back', async (t) => {
  const path = join(t.testdir(), 'edge-run.mcap');
  const { gate, profile } = makeGate();
  const topics = robotTopics(profile.robotId);
  const recorder = await VerdictRecorder.create(path);
  const telemetry = (frame: { source: string }, atMs: number) =>
    recorder.input(topics.telemetry(frame.source), frame, atMs);
  for (let dt = 0; dt <= 300; dt += 20) {
    const at = T0 + dt;
    await telemetry(jointState(profile, at), at);
    await telemetry(proximity(profile.robotId, 'proximity-front', at, dt >= 300 ? 0.3 : null), at);
    await telemetry(proximity(profile.robotId, 'proximity-rear', at, null), at);
    if (dt % 100 === 0) await telemetry(battery(profile.robotId, at), at);
    if (dt === 0) await telemetry(firmware(profile.robotId, at), at);
  }
  // The clock stepped back 10 ms after the person was seen: the intent arrived later, logged earlier.
  await recorder.input(topics.intent, armIntent({ intentId: 'after-the-person' }), T0 + 290);
  await recorder.close();

  const s = await replayRecording({ bagPath: path, profile, gate });
  t.equal(s.error, undefined);
  t.equal(s.intents, 1);
  t.equal(s.commands.motion, 0, 'not signed: live, the gate had seen the person first');
  t.match(s.firstVeto, {
    outcome: 'vetoed',
    intentId: 'after-the-person',
    violation: /^RISK\.HUMAN_IN_RADIUS/,
  });
  t.equal(s.logTimeReordered, 0);
  t.equal(s.logTimeBackwards, 1, 'replayed at the latest time seen, as the live gate saw it');
});
