/**
 * sensor_msgs/BatteryState as real drivers publish it, replayed through the gates: an unmeasured current (NaN, as
 * the message definition asks) is not used and refuses nothing, so the cell's move is signed; a state of charge
 * that cannot be known (NaN percentage, NaN charge and capacity) and a percentage in 0–100 (a driver publishing
 * percent) with no charge and capacity to read it from are skipped with a reason naming the field and the fix, and ECONOMY fails closed without a battery frame.
 */
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { T0, armIntent, makeGate } from '../trap/fixtures.js';
import { type SceneWriter, TOPICS, openBag, writeCellRecording } from '../transports/helpers/recordings.js';

type BatteryPatch = Record<string, number>;

/** The healthy cell with one move at 300 ms, its BatteryState messages changed by `patch`. */
async function replayCell(t: Test, patch: BatteryPatch) {
  const path = join(t.testdir(), 'cell.mcap');
  const { gate, profile } = makeGate();
  const patched = async (p: string): Promise<SceneWriter> => {
    const bag = await openBag(p);
    return {
      rosChannel: (topic, type) => bag.rosChannel(topic, type),
      write: (topic, message, logTimeMs) =>
        bag.write(
          topic,
          topic === TOPICS.battery ? { ...(message as object), ...patch } : message,
          logTimeMs,
        ),
      finish: () => bag.finish(),
    };
  };
  await writeCellRecording(path, profile, T0, 600, { intents: [[300, armIntent()]] }, patched);
  const s = await replayRecording({ bagPath: path, profile, gate });
  t.equal(s.error, undefined);
  t.equal(s.intents, 1);
  return s;
}

t.test('an unmeasured current (NaN) is not used: the move is signed', async (t) => {
  const s = await replayCell(t, { current: Number.NaN });
  t.same(s.skipped.byReason, {});
  t.equal(s.commands.motion, 1);
  t.equal(s.verdicts.byVertex.ECONOMY.failed, 0);
});

t.test(
  'NaN percentage with NaN charge and capacity: state of charge unknown, ECONOMY fails closed',
  async (t) => {
    const s = await replayCell(t, { percentage: Number.NaN, charge: Number.NaN, capacity: Number.NaN });
    t.equal(s.skipped.byReason['non-finite'], 7, 'every BatteryState message');
    t.match(
      s.skipped.examples['non-finite'],
      /percentage is NaN \(unmeasured\).*the state of charge is unknown/,
    );
    t.equal(s.commands.motion, 0);
    t.match(s.firstFailureByVertex.ECONOMY, { violation: /^ECONOMY\.MISSING_DATA: no battery frame/ });
  },
);

t.test(
  'a percentage of 80 with charge and capacity measured: the state of charge is read from them',
  async (t) => {
    const s = await replayCell(t, { percentage: 80, charge: 16, capacity: 20 });
    t.same(s.skipped.byReason, {});
    t.equal(s.commands.motion, 1);
    const low = await replayCell(t, { percentage: 80, charge: 0.2, capacity: 20 });
    t.equal(low.commands.motion, 0, 'a 1 % charge is not read as 80 %');
    t.match(low.firstFailureByVertex.ECONOMY, { violation: /^ECONOMY\./ });
  },
);

t.test(
  'a percentage of 80 (a driver publishing percent) with no charge and capacity is refused with the fix named',
  async (t) => {
    const s = await replayCell(t, { percentage: 80 });
    t.equal(s.skipped.byReason.malformed, 7);
    t.match(
      s.skipped.examples.malformed,
      /percentage 80 is outside 0\.\.1 .*the driver publishes percent \(0–100\): make it publish a fraction/,
    );
    t.equal(s.commands.motion, 0);
    t.match(s.firstFailureByVertex.ECONOMY, { violation: /^ECONOMY\.MISSING_DATA/ });
  },
);
