/**
 * Messages stored out of log-time order (a recorder's threads interleave writes) replay in log-time order, as
 * `ros2 bag play` plays them: a human seen 10 ms before an intent, but stored after it, vetoes the intent.
 */
import { join } from 'node:path';
import t from 'tap';
import { inLogTimeOrder, REORDER_WINDOW_NS } from '../../src/mcap/log-time-order.js';
import { replayRecording } from '../../src/mcap/replay.js';
import { renderReplaySummary } from '../../src/mcap/replay-summary.js';
import type { RecordedItem } from '../../src/mcap/rosbag-reader.js';
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

const NS_PER_MS = 1_000_000n;

/**
 * A healthy cell for 600 ms; a person at 0.3 m in front from `humanAtMs` on, that scan stored `lateByMs` after
 * an intent sent at `humanAtMs + 10`.
 */
async function writeCell(path: string, humanAtMs: number, lateByMs: number) {
  const { profile } = makeGate();
  const w = await openBag(path);
  const heldScan = T0 + humanAtMs;
  const intentAt = heldScan + 10;
  let scanWritten = false;
  for (let dt = 0; dt <= Math.max(600, humanAtMs + lateByMs + 20); dt += 20) {
    const at = T0 + dt;
    await w.write(TOPICS.joints, jointStateMsg(profile, at), at);
    if (at !== heldScan) await w.write(TOPICS.front, scanMsg(at, dt >= humanAtMs ? 0.3 : null), at);
    await w.write(TOPICS.rear, scanMsg(at, null), at);
    if (dt % 100 === 0) await w.write(TOPICS.battery, batteryMsg(at), at);
    if (dt % 500 === 0) await w.write(TOPICS.firmware, firmwareMsg(), at);
    if (at === heldScan) await w.write(TOPICS.intent, trajectoryMsg(armIntent(), intentAt), intentAt);
    if (!scanWritten && at >= intentAt + lateByMs - 10) {
      await w.write(TOPICS.front, scanMsg(heldScan, 0.3), heldScan);
      scanWritten = true;
    }
  }
  await w.finish();
}

t.test('a scan stored after a later intent is replayed before it: the intent is vetoed', async (t) => {
  const bag = join(t.testdir(), 'interleaved.mcap');
  await writeCell(bag, 300, 0);
  const { gate, profile } = makeGate();
  const s = await replayRecording({ bagPath: bag, profile, gate });
  t.equal(s.error, undefined);
  t.equal(s.logTimeReordered, 1, 'the one scan stored late');
  t.equal(s.logTimeBackwards, 0, 'nothing replayed out of order');
  t.equal(s.commands.motion, 0, 'nothing signed (in file order the move was signed, then stopped)');
  t.equal(s.verdicts.byOutcome.vetoed, 1);
  t.match(s.firstVeto, { outcome: 'vetoed', offsetMs: 310, violation: /^RISK\.HUMAN_IN_RADIUS/ });
  t.same(s.warnings, []);
  t.match(renderReplaySummary(s), /1 messages stored out of log-time order, replayed in log-time order/);
});

t.test(
  'a scan stored more than the window late in an indexed file is read in place through the index',
  async (t) => {
    const bag = join(t.testdir(), 'very-late.mcap');
    const lateMs = Number(REORDER_WINDOW_NS / NS_PER_MS) + 200;
    await writeCell(bag, 300, lateMs);
    const { gate, profile } = makeGate();
    const s = await replayRecording({ bagPath: bag, profile, gate });
    t.equal(s.error, undefined);
    t.equal(s.logTimeBackwards, 0);
    t.equal(s.logTimeReordered, 1);
    t.same(s.warnings, []);
    t.equal(s.commands.motion, 0, 'the intent is judged with the person the late-stored scan shows');
    t.match(s.firstVeto, { outcome: 'vetoed', offsetMs: 310, violation: /^RISK\.HUMAN_IN_RADIUS/ });
  },
);

t.test('a scan with a zero log time is replayed where it was stored, not moved to 1970', async (t) => {
  // A writer that left the log time unset on one message: sorted, it would be judged at log time 0, refused as
  // another clock's, and the intent 10 ms later signed without the person it shows.
  const bag = join(t.testdir(), 'zero-log-time.mcap');
  const { gate, profile } = makeGate();
  const w = await openBag(bag);
  for (let dt = 0; dt <= 400; dt += 20) {
    const at = T0 + dt;
    await w.write(TOPICS.joints, jointStateMsg(profile, at), at);
    await w.write(TOPICS.front, scanMsg(at, dt >= 200 ? 0.3 : null), dt === 200 ? 0 : at);
    await w.write(TOPICS.rear, scanMsg(at, null), at);
    if (dt % 100 === 0) await w.write(TOPICS.battery, batteryMsg(at), at);
    if (dt === 0) await w.write(TOPICS.firmware, firmwareMsg(), at);
    if (dt === 200) await w.write(TOPICS.intent, trajectoryMsg(armIntent(), at + 10), at + 10);
  }
  await w.finish();
  const s = await replayRecording({ bagPath: bag, profile, gate });
  t.equal(s.firstMessageMs, T0);
  t.equal(s.logTimeBackwards, 1);
  t.same(s.skipped.byReason, {}, 'the scan is judged at the time it was stored');
  t.equal(s.commands.motion, 0);
  t.match(s.firstVeto, { outcome: 'vetoed', offsetMs: 210, violation: /^RISK\.HUMAN_IN_RADIUS/ });
  t.equal(s.warnings.length, 1, 'only the late message is warned of, no simulated clock');
  t.match(s.warnings[0], /stored more than 1 s of log time after later ones/);
});

t.test('inLogTimeOrder: sorted within the window, stable, and flushed before a read error', async (t) => {
  const item = (ms: number, topic: string): RecordedItem => ({
    kind: 'unread',
    topic,
    type: 'std_msgs/msg/String',
    logTimeNs: BigInt(ms) * NS_PER_MS,
  });
  async function* source() {
    yield item(10, 'a');
    yield item(30, 'b');
    yield item(10, 'c');
    yield item(20, 'd');
    yield item(5000, 'e');
    yield item(15, 'f'); // beyond the window behind e: keeps its place after e
    throw new Error('truncated');
  }
  const counts = { reordered: 0, late: 0 };
  const seen: string[] = [];
  await t.rejects(async () => {
    for await (const x of inLogTimeOrder(source(), counts, 1000n * NS_PER_MS)) seen.push(x.topic);
  }, /truncated/);
  t.same(
    seen,
    ['a', 'c', 'd', 'b', 'e', 'f'],
    'equal log times keep file order; f, too late, keeps its place; all is flushed before the error',
  );
  t.same(counts, { reordered: 2, late: 1 });
});

t.test('inLogTimeOrder: a long, dense recording comes out whole and sorted', async (t) => {
  // 20 000 items 0.1 ms apart (10 kHz: the 1 s window holds all of them), every 7th stored 3 ms late.
  const n = 20_000;
  const stepNs = 100_000n;
  async function* source() {
    for (let i = 0; i < n; i++) {
      const late = i % 7 === 6;
      const ns = BigInt(late ? i - 30 : i) * stepNs;
      yield { kind: 'unread', topic: `/t${i}`, type: 'std_msgs/msg/String', logTimeNs: ns } as RecordedItem;
    }
  }
  const counts = { reordered: 0, late: 0 };
  const out: bigint[] = [];
  for await (const x of inLogTimeOrder(source(), counts)) out.push(x.logTimeNs);
  t.equal(out.length, n);
  t.ok(
    out.every((ns, i) => i === 0 || ns >= out[i - 1]!),
    'sorted',
  );
  t.same(counts, { reordered: Math.floor(n / 7), late: 0 });
});
