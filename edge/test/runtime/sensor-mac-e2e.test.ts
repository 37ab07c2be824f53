/**
 * Over the real embedded broker and real sockets: a stolen broker password is not a sensor key. The
 * proximity source is `authenticated`; the real lidar signs its frames. A spoofer holding the lidar's broker
 * credentials (but not its HMAC key) sends "nobody present" with a huge seq, then frames signed by its own
 * key, with a forged tag, and a real signed frame with its value changed. None is accepted, none withdraws
 * the real reading, and while the real sensor sees a person inside the radius nothing is signed. The signed
 * command's evidence digest covers the sensor's MAC.
 */
import { randomBytes } from 'node:crypto';
import { jcsDigestHex, signTelemetryFrame } from '@pentagate/crypto';
import {
  hasEdgeViolation,
  type MotorCommand,
  type TelemetryFrame,
  type VerdictEvent,
} from '@pentagate/protocol';
import t from 'tap';
import { LIDAR_LOGIN, startLidarCell } from './helpers/lidar-cell.js';
import { connectClient } from './helpers/mqtt-clients.js';

t.test('only frames signed by the sensor key decide; spoofed ones are refused', async (t) => {
  const lidarKey = new Uint8Array(randomBytes(32));
  const { brokerUrl, fixture, gate, topics, robot, lidar, inbox, decide } = await startLidarCell(t, {
    proximityKey: lidarKey,
  });
  // The spoofer logs in with the lidar's (stolen) broker credentials: the broker cannot tell them apart.
  const spoofer = await connectClient(brokerUrl, LIDAR_LOGIN);
  t.teardown(() => spoofer.endAsync(true));
  const send = (client: typeof robot, frame: unknown) =>
    client.publishAsync(topics.telemetry('proximity'), JSON.stringify(frame), { qos: 1 });
  const refusal = () =>
    inbox.next<VerdictEvent>(topics.verdict, (v) =>
      hasEdgeViolation(v.violations.slice(0, 1), 'INPUT.TELEMETRY_UNAUTHENTICATED'),
    );
  // Refusals after the first of a kind are summarised, not published one by one: count them at the gate.
  const refusedAfter = async (before: number): Promise<number> => {
    const deadline = Date.now() + 20_000;
    while (gate.telemetryRejections().unauthenticated <= before) {
      if (Date.now() > deadline) throw new Error('the spoofed frame was not refused within 20 s');
      await new Promise((r) => setTimeout(r, 5));
    }
    return gate.telemetryRejections().unauthenticated;
  };

  const start = fixture.passingFrames(1, Date.now());
  for (const frame of start) {
    const from = frame.source === 'proximity' ? lidar : robot;
    await from.publishAsync(topics.telemetry(frame.source), JSON.stringify(frame), { qos: 1 });
  }
  t.equal((await decide('healthy')).outcome, 'signed', 'signed lidar frames: the move is signed');
  await inbox.next<MotorCommand>(topics.cmd, (c) => c.intentId === 'healthy');

  // The real lidar sees a person at 0.5 m, inside the 1.2 m radius.
  const person = fixture.proximityFrame(2, Date.now(), 0.5);
  await send(lidar, person);
  // 1. Unsigned "nobody present" with a huge seq: refused before the seq rule, the real frame stays.
  await send(spoofer, { ...person, seq: 1e12, nearestHumanM: null, mac: undefined });
  t.match((await refusal()).violations[0], /unsigned frame/, 'an unsigned frame is refused');
  // 2. Signed with the spoofer's own key.
  let refused = gate.telemetryRejections().unauthenticated;
  t.equal(refused, 1);
  const ownKey = new Uint8Array(randomBytes(32));
  await send(spoofer, signTelemetryFrame(ownKey, { ...person, seq: 3, nearestHumanM: null }));
  refused = await refusedAfter(refused);
  // 3. The lidar's key id with a made-up tag.
  const real = person as TelemetryFrame & { mac: { keyId: string; hmacSha256: string } };
  await send(spoofer, {
    ...person,
    seq: 4,
    nearestHumanM: null,
    mac: { keyId: real.mac.keyId, hmacSha256: 'A'.repeat(43) },
  });
  refused = await refusedAfter(refused);
  // 4. The real signed frame replayed with its value changed.
  await send(spoofer, { ...person, seq: 5, nearestHumanM: null });
  refused = await refusedAfter(refused);
  t.equal(refused, 4, 'every spoofed frame was refused as unauthenticated');
  t.equal(gate.telemetryRejections()['out-of-order'], 0, 'no spoofed frame reached the seq rule');

  const vetoed = await decide('person-inside');
  t.equal(vetoed.outcome, 'vetoed', 'nothing is signed while the real sensor sees a person');
  t.match(
    vetoed.violations.join('\n'),
    /RISK\.HUMAN_IN_RADIUS: human at 0\.50 m/,
    'decided on the real frame',
  );

  // The person leaves (signed): the next move is signed, and its evidence digest covers the lidar's MAC.
  const clear = fixture.proximityFrame(3, Date.now(), 4);
  await send(lidar, clear);
  t.equal((await decide('after')).outcome, 'signed');
  const command = await inbox.next<MotorCommand>(topics.cmd, (c) => c.intentId === 'after');
  const consulted = [...start.filter((f) => f.source !== 'proximity'), clear].sort((a, b) =>
    a.source < b.source ? -1 : 1,
  );
  t.equal(command.evidenceDigest, jcsDigestHex(consulted), 'evidence = the consulted frames, MAC included');
  const { mac: _mac, ...unsignedClear } = clear as TelemetryFrame & { mac?: unknown };
  t.not(
    command.evidenceDigest,
    jcsDigestHex([...consulted.filter((f) => f.source !== 'proximity'), unsignedClear]),
    'without the MAC the digest would differ',
  );
});
