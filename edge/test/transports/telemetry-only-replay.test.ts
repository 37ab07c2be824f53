/**
 * A telemetry-only recording (no intents, as most bags are): replay still judges the measured data against the
 * profile and reports each breach once, with its time, subject, value and limit.
 */
import { join } from 'node:path';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { renderReplaySummary } from '../../src/mcap/replay-summary.js';
import { T0, makeGate } from '../trap/fixtures.js';
import { TOPICS, batteryMsg, jointStateMsg, openBag, scanMsg } from './helpers/recordings.js';

t.test(
  'telemetry only: effort over the torque limit and a person inside the radius, with time and value',
  async (t) => {
    const dir = t.testdir();
    const bag = join(dir, 'drive.mcap');
    const { gate, profile } = makeGate();
    const elbow = profile.joints[2]!;
    const hot = [10, 40, elbow.torqueLimitNm + 50, 2, 1, 0.5];
    const w = await openBag(bag);
    for (let dt = 0; dt <= 800; dt += 20) {
      const at = T0 + dt;
      await w.write(TOPICS.joints, jointStateMsg(profile, at, dt >= 200 && dt <= 400 ? hot : undefined), at);
      await w.write(TOPICS.front, scanMsg(at, dt >= 500 ? 0.3 : null), at);
      await w.write(TOPICS.rear, scanMsg(at, null), at);
      if (dt % 100 === 0) await w.write(TOPICS.battery, batteryMsg(at), at);
    }
    await w.finish();
    const s = await replayRecording({ bagPath: bag, profile, gate });
    t.equal(s.error, undefined);
    t.equal(s.intents, 0, 'no intents in the recording');
    t.equal(s.verdicts.total, 0);
    const effort = s.measured.breaches.filter((b) => b.check === 'effort');
    t.equal(effort.length, 1, 'one episode, reported once');
    t.match(effort[0], {
      atMs: T0 + 200,
      subject: elbow.name,
      value: elbow.torqueLimitNm + 50,
      limit: elbow.torqueLimitNm,
    });
    t.equal(s.measured.framesInBreach.effort, 11, 'frames from 200 to 400 ms at 50 Hz');
    const proximity = s.measured.breaches.filter((b) => b.check === 'proximity');
    t.equal(proximity.length, 1);
    t.match(proximity[0], {
      atMs: T0 + 500,
      subject: 'proximity-front',
      value: Math.fround(0.3), // LaserScan ranges are float32
      limit: profile.risk.operatingRadiusM,
    });
    t.equal(
      s.measured.breaches.filter((b) => b.check === 'battery').length,
      0,
      'a healthy battery is no breach',
    );
    const text = renderReplaySummary(s);
    t.match(text, /measured\s+2 breaches \(frames in breach: effort 11, proximity \d+\)/);
    t.match(
      text,
      new RegExp(
        `\\+0\\.200 s\\s+effort\\s+${elbow.name} effort ${elbow.torqueLimitNm + 50}\\.0 N·m > limit ${elbow.torqueLimitNm} N·m`,
      ),
    );
    t.match(text, /\+0\.500 s\s+proximity\s+nearest return 0\.30 m < operating radius/);
  },
);
