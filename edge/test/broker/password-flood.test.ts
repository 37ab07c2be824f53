/**
 * Wrong passwords must not starve the gate: scrypt runs a bounded number of derivations at once, an address
 * that keeps failing waits (refused without a derivation), and accounts already proven reconnect on one
 * HMAC even from that address. Real mqtt.js clients on the embedded broker.
 */
import t from 'tap';
import { startEmbeddedBroker } from '../../src/broker/embedded-broker.js';
import { hashPassword } from '../../src/broker/password-hash.js';
import { connectClient } from '../runtime/helpers/mqtt-clients.js';

const FAST = { logN: 10, r: 8, p: 1 };

async function attempt(url: string, username: string, password: string): Promise<number> {
  try {
    const client = await connectClient(url, { username, password });
    await client.endAsync(true);
    return 0;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

async function users() {
  return [
    // Given in clear: proven at start, as the edge's own account is with `edge run --mqtt embedded:PORT`.
    { username: 'edge-r1', password: 'edge-pw-3c', role: 'edge' as const, robotId: 'r1' },
    // Only a hash: proven at its first successful login.
    {
      username: 'planner-r1',
      passwordHash: await hashPassword('planner-pw-9a', FAST),
      role: 'planner' as const,
      robotId: 'r1',
    },
  ];
}

t.test('an address that keeps failing waits, and is refused without scrypt meanwhile', async (t) => {
  const broker = await startEmbeddedBroker({
    port: 0,
    users: await users(),
    passwordChecks: { freeFailures: 3, backoffBaseMs: 1500, maxRefusalDelayMs: 50 },
  });
  t.teardown(() => broker.close());
  for (let i = 0; i < 3; i++)
    t.equal(await attempt(broker.url, 'planner-r1', `guess-${i}`), 4, `guess ${i}: refused`);
  t.equal(broker.passwordStats().checks, 3);
  t.equal(
    await attempt(broker.url, 'planner-r1', 'guess-3'),
    3,
    'in back-off: CONNACK 3 (server unavailable)',
  );
  t.equal(await attempt(broker.url, 'planner-r1', 'planner-pw-9a'), 3, 'even the right password waits');
  t.equal(broker.passwordStats().checks, 3, 'no scrypt ran for either');
  t.equal(
    await attempt(broker.url, 'edge-r1', 'edge-pw-3c'),
    0,
    'a proven account connects from the same address',
  );
  t.equal(broker.passwordStats().checks, 3, 'on one HMAC');
  await new Promise((r) => setTimeout(r, 1600));
  t.equal(
    await attempt(broker.url, 'planner-r1', 'planner-pw-9a'),
    0,
    'after the wait the right password works',
  );
  t.equal(await attempt(broker.url, 'planner-r1', 'guess-4'), 4, 'and a success clears the failure count');
});

t.test('64 wrong logins at once: bounded derivations, the rest refused at once', async (t) => {
  const broker = await startEmbeddedBroker({
    port: 0,
    users: await users(),
    // Back-off off, so only the derivation queue bounds the work here.
    passwordChecks: {
      freeFailures: 1_000_000,
      maxConcurrentChecks: 1,
      maxQueuedChecks: 4,
      maxRefusalDelayMs: 50,
    },
  });
  t.teardown(() => broker.close());
  const flood = Promise.all(
    Array.from({ length: 64 }, (_, i) => attempt(broker.url, i % 2 ? 'planner-r1' : 'nobody', `wrong-${i}`)),
  );
  const proven = attempt(broker.url, 'edge-r1', 'edge-pw-3c');
  const codes = await flood;
  t.equal(await proven, 0, 'the proven edge account connects during the flood');
  t.notOk(codes.includes(0), 'no wrong password got in');
  const stats = broker.passwordStats();
  t.equal(codes.filter((c) => c === 3).length, stats.busy, 'each refusal for a full queue is CONNACK 3');
  t.ok(stats.busy > 0, `${stats.busy} refused without a derivation`);
  t.equal(stats.checks + stats.busy, 64, `${stats.checks} derivations ran for 64 attempts`);
});
