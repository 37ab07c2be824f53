/**
 * Over the real embedded broker and real sockets: the broker binds a source to the one account that may
 * publish its topic (`telemetry/<source>`), so a frame must come from the topic of the source it names. The
 * robot's account, which may publish joint states but not the lidar's `proximity`, publishes a "nobody
 * present" proximity frame on its own `telemetry/joints` topic while the lidar sees a person inside the
 * radius. The frame is refused, the lidar's reading stands, and nothing is signed.
 */
import { hasEdgeViolation, type VerdictEvent } from '@pentagate/protocol';
import t from 'tap';
import { startLidarCell } from './helpers/lidar-cell.js';

t.test('a frame naming another source than its topic is refused', async (t) => {
  const { fixture, topics, robot, lidar, inbox, decide } = await startLidarCell(t);

  const now = Date.now();
  for (const frame of fixture.passingFrames(1, now)) {
    const from = frame.source === 'proximity' ? lidar : robot;
    await from.publishAsync(topics.telemetry(frame.source), JSON.stringify(frame), { qos: 1 });
  }
  t.equal((await decide('before')).outcome, 'signed', 'nobody near: the move is signed');

  // The lidar sees a person at 0.5 m, inside the 1.2 m radius.
  await lidar.publishAsync(
    topics.telemetry('proximity'),
    JSON.stringify(fixture.proximityFrame(2, Date.now(), 0.5)),
    { qos: 1 },
  );
  // The broker refuses the robot's account on the lidar's topic (it closes the connection)...
  // ...so the robot's account sends the lidar's source on its own joint-state topic instead.
  const forged = fixture.proximityFrame(3, Date.now(), null);
  await robot.publishAsync(topics.telemetry('joints'), JSON.stringify(forged), { qos: 1 });
  const vetoed = await decide('person-inside');
  t.equal(vetoed.outcome, 'vetoed', 'nothing is signed while the lidar sees a person');
  t.match(vetoed.violations.join('\n'), /RISK\.HUMAN_IN_RADIUS: human at 0\.50 m/, 'the lidar decided');
  const refused = await inbox.next<VerdictEvent>(topics.verdict, (v) =>
    hasEdgeViolation(v.violations.slice(0, 1), 'INPUT.TELEMETRY_WRONG_TOPIC'),
  );
  t.match(refused.violations[0], /source proximity .*telemetry\/joints/, 'the refusal names both');
});
