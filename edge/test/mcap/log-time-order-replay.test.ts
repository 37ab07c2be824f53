/**
 * probe
 */
import { join } from 'node:path';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { T0, armIntent, makeGate } from '../trap/fixtures.js';
import {
  TOPICS,
  batteryMsg,
  firmwareMsg,
  jointStateMsg,
  openBag,
  scanMsg,
  trajectoryMsg,
} from '../transports/helpers/recordings.js';

t.test('probe: a scan written after a later intent', async (t) => {
  const bag = join(t.testdir(), 'late.mcap');
  const { gate, profile } = makeGate();
  const w = await openBag(bag);
  let held: [number] | undefined;
  for (let dt = 0; dt <= 600; dt += 20) {
    const at = T0 + dt;
    await w.write(TOPICS.joints, jointStateMsg(profile, at), at);
    if (dt === 300) held = [at];
    else await w.write(TOPICS.front, scanMsg(at, dt >= 300 ? 0.3 : null), at);
    await w.write(TOPICS.rear, scanMsg(at, null), at);
    if (dt % 100 === 0) await w.write(TOPICS.battery, batteryMsg(at), at);
    if (dt % 500 === 0) await w.write(TOPICS.firmware, firmwareMsg(), at);
    if (dt === 300) {
      await w.write(TOPICS.intent, trajectoryMsg(armIntent(), at + 10), at + 10);
      await w.write(TOPICS.front, scanMsg(held![0], 0.3), held![0]);
    }
  }
  await w.finish();
  const s = await replayRecording({ bagPath: bag, profile, gate });
  console.log(
    JSON.stringify({ v: s.verdicts, c: s.commands, back: s.logTimeBackwards, fv: s.firstVeto, err: s.error }),
  );
});
