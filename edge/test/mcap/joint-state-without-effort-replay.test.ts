/**
 * A recording whose /joint_states has empty velocity and effort arrays (sensor_msgs/JointState: "each array may
 * be empty"): replay still judges the positions (limits, keep-out zones) and says that the effort check could not
 * run, instead of skipping every joint state.
 */
import { join } from 'node:path';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { renderReplaySummary } from '../../src/mcap/replay-summary.js';
import { HOME, T0, makeGate } from '../trap/fixtures.js';
import { TOPICS, jointStateMsg, openBag } from '../transports/helpers/recordings.js';

t.test(
  'replay: positions judged without velocity and effort; the effort check said not to run',
  async (t) => {
    const bag = join(t.testdir(), 'no-effort.mcap');
    const { gate, profile } = makeGate();
    const wrist = profile.joints[4]!;
    const w = await openBag(bag);
    for (let dt = 0; dt <= 400; dt += 20) {
      const at = T0 + dt;
      const position = HOME.map((q, i) => (i === 4 && dt >= 200 ? wrist.positionLimitsRad.max + 0.1 : q));
      await w.write(TOPICS.joints, { ...jointStateMsg(profile, at), position, velocity: [], effort: [] }, at);
    }
    await w.finish();
    const s = await replayRecording({ bagPath: bag, profile, gate });
    t.equal(s.error, undefined);
    t.equal(s.skipped.total, 0, JSON.stringify(s.skipped.examples));
    t.equal(s.telemetry.accepted, 21);
    t.match(s.measured.breaches, [{ atMs: T0 + 200, check: 'position-limit', subject: wrist.name }]);
    t.same(s.measured.notChecked, { effort: { frames: 21, why: 'joint_states has an empty effort array' } });
    t.match(
      renderReplaySummary(s),
      /not checked: effort on 21 frames \(joint_states has an empty effort array\)/,
    );
  },
);
