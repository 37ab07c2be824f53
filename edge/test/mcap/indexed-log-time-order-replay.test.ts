/**
 * An indexed MCAP whose writer stored every /cmd_vel after all the sensor data, in chunks of its own: streamed,
 * the commands would be seconds late and judged at the end of the recording against its last frames. Read through
 * the index, as rosbag2_storage_mcap's LogTimeOrder plays it, each command is judged when it was sent: the ones
 * before a person walks in are signed, the one after is vetoed.
 */
import { join } from 'node:path';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, baseProfileWithIntent, makeGate } from '../trap/fixtures.js';
import { cloudMsg, odometryMsg, twistStampedMsg } from '../ros/helpers/ros-messages.js';
import { batteryMsg, firmwareMsg, openBaseBag } from '../transports/helpers/recordings.js';

const HUMAN_FROM_MS = 1500;
const COMMANDS_AT_MS = [200, 1000, 2000];

/** 3 s of a base at 50 Hz; the commands written last, after every sensor message, in their own chunks. */
async function writeCommandsLast(path: string, options: { useChunks: boolean }): Promise<void> {
  const bag = await openBaseBag(
    path,
    { topic: '/points', rosType: ROS_TYPES.pointCloud2 },
    {
      chunkSize: 16 * 1024,
      ...options,
    },
  );
  for (let dt = 0; dt <= 3000; dt += 20) {
    const at = T0 + dt;
    await bag.write('/odom', odometryMsg(at - 2, { x: 5, y: 0 }), at);
    const person = dt >= HUMAN_FROM_MS ? [[1, 0.2, 0.5]] : [];
    await bag.write('/points', cloudMsg(at - 1, [[4, -1, 0.5], ...person]), at);
    if (dt % 100 === 0) await bag.write('/battery_state', { ...batteryMsg(at), voltage: 24 }, at);
    if (dt % 500 === 0) await bag.write('/controller/firmware', firmwareMsg(), at);
  }
  for (const dt of COMMANDS_AT_MS) await bag.write('/cmd_vel', twistStampedMsg(T0 + dt, 0.3, 0), T0 + dt + 1);
  await bag.finish();
}

async function replay(path: string) {
  const { gate, profile } = makeGate(baseProfileWithIntent('/cmd_vel'));
  return replayRecording({ bagPath: path, profile, gate });
}

t.test(
  'commands stored after all sensor data are replayed at their log time through the index',
  async (t) => {
    const path = join(t.testdir(), 'commands-last.mcap');
    await writeCommandsLast(path, { useChunks: true });
    const s = await replay(path);
    t.equal(s.error, undefined);
    t.equal(s.intents, 3);
    t.equal(s.logTimeBackwards, 0, 'nothing replayed behind a later message');
    t.equal(s.logTimeReordered, 3, 'the three commands, put back in place');
    t.same(s.warnings, []);
    t.equal(s.verdicts.byOutcome.signed, 2, 'the commands at 200 and 1000 ms, with the aisle clear');
    t.match(s.firstFailureByVertex.RISK, {
      outcome: 'vetoed',
      offsetMs: 2001,
      violation: /^RISK\.HUMAN_IN_RADIUS/,
    });
  },
);

t.test('without an index the stream keeps its window, and says the commands came late', async (t) => {
  const path = join(t.testdir(), 'commands-last-unindexed.mcap');
  await writeCommandsLast(path, { useChunks: false });
  const s = await replay(path);
  t.equal(s.error, undefined);
  t.equal(s.logTimeBackwards, 2, 'the commands at 200 and 1000 ms; the one at 2000 ms is within the window');
  t.match(s.warnings, [/2 messages were stored more than 1 s of log time after later ones/]);
});
