/**
 * Sockets that never log in cannot lock out those that do: idle TCP sockets (no CONNECT) are capped apart
 * from authenticated clients, per address and in total, and closed after the connect timeout, while a
 * valid login gets in at once, from the same address as the flood. Real sockets, the broker on port 0.
 */
import { connect, type Socket } from 'node:net';
import type { MqttClient } from 'mqtt';
import t from 'tap';
import {
  type BrokerRefusal,
  DEFAULT_CONNECT_TIMEOUT_MS,
  type EmbeddedBrokerOptions,
  startEmbeddedBroker,
} from '../../src/broker/embedded-broker.js';
import { connectClient } from '../runtime/helpers/mqtt-clients.js';

const USERS = [
  { username: 'planner-r1', role: 'planner', robotId: 'r1', password: 'planner-pw-1' },
  { username: 'edge-r1', role: 'edge', robotId: 'r1', password: 'edge-pw-1' },
] as const;
const LOGIN = { username: 'planner-r1', password: 'planner-pw-1' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until `done()` holds or `timeoutMs` passes. The broker closes sockets from timers; on a loaded CI
 * machine a timer can fire hundreds of ms late, so the tests wait for the closes rather than a fixed time,
 * then wait a little longer to see that no more follow.
 */
async function settle(done: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!done() && performance.now() < deadline) await sleep(10);
  await sleep(100);
}

const closedCount = (idle: readonly Idle[]) => idle.filter((s) => s.closedAt !== undefined).length;

async function broker(options: Partial<EmbeddedBrokerOptions> = {}) {
  const refusals: BrokerRefusal[] = [];
  const b = await startEmbeddedBroker({
    port: 0,
    users: USERS.map((u) => ({ ...u })),
    onRefusal: (e) => refusals.push(e),
    ...options,
  });
  return { broker: b, refusals };
}

/** An idle raw TCP socket (never sends a byte) and when the server closed it. */
interface Idle {
  socket: Socket;
  openedAt: number;
  closedAt?: number;
}

function openIdle(port: number): Promise<Idle> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const idle: Idle = { socket, openedAt: performance.now() };
    socket.once('connect', () => resolve(idle));
    socket.once('error', reject);
    // Flowing, so the server's FIN is read and 'close' follows.
    socket.resume();
    socket.once('close', () => {
      idle.closedAt = performance.now();
    });
  });
}

/**
 * The attack from the outside test: `count` idle sockets from 127.0.0.1, each reopened as soon as the
 * broker closes it.
 */
class IdleFlood {
  readonly #port: number;
  readonly #open = new Set<Socket>();
  #stopped = false;
  closedByServer = 0;
  opened = 0;

  constructor(port: number, count: number) {
    this.#port = port;
    for (let i = 0; i < count; i++) this.#openOne();
  }

  get open(): number {
    return this.#open.size;
  }

  #openOne(): void {
    if (this.#stopped) return;
    const socket = connect({ host: '127.0.0.1', port: this.#port });
    this.opened += 1;
    this.#open.add(socket);
    socket.on('error', () => {});
    socket.resume();
    socket.once('close', () => {
      this.#open.delete(socket);
      if (this.#stopped) return;
      this.closedByServer += 1;
      setImmediate(() => this.#openOne());
    });
  }

  stop(): void {
    this.#stopped = true;
    for (const s of this.#open) s.destroy();
    this.#open.clear();
  }
}

/** Connects a real mqtt.js client with valid credentials; resolves with the time it took, ms. */
async function timedLogin(url: string): Promise<{ ms: number; client: MqttClient }> {
  const start = performance.now();
  const client = await connectClient(url, LOGIN);
  return { ms: performance.now() - start, client };
}

t.test(
  '140 idle sockets from 127.0.0.1, reopened when closed, do not lock out a valid login (defaults)',
  async (t) => {
    const { broker: b, refusals } = await broker();
    t.teardown(() => b.close());
    const flood = new IdleFlood(b.port, 140);
    t.teardown(() => flood.stop());
    // Let the flood fill the broker and its sockets outlive their grace, as in the outside test.
    await sleep(500);
    const times: number[] = [];
    const clients: MqttClient[] = [];
    t.teardown(() => Promise.all(clients.map((c) => c.endAsync(true))));
    for (let i = 0; i < 10; i++) {
      const { ms, client } = await timedLogin(b.url);
      times.push(ms);
      clients.push(client);
      await sleep(50);
    }
    t.comment(
      `logins under the flood: max ${Math.max(...times).toFixed(1)} ms, ` +
        `median ${times.sort((a, c) => a - c)[5]?.toFixed(1)} ms; flood sockets open ${flood.open}, ` +
        `closed by the broker ${flood.closedByServer}, pending now ${b.pendingConnections()}`,
    );
    t.ok(
      Math.max(...times) < 1000,
      `every one of 10 logins connected within 1 s (max ${Math.max(...times).toFixed(1)} ms)`,
    );
    t.ok(flood.closedByServer > 0, 'the broker closed idle sockets over the caps');
    t.ok(
      refusals.some((r) => r.reason === 'too-many-pending'),
      'the closes are reported as too-many-pending',
    );
    t.equal(b.connectedClients(), 10, 'all ten clients are connected');
    // Under the hard limit (8 × 32) every flood socket may be held while in its grace, no more.
    t.ok(b.pendingConnections() <= 256, `pending sockets bounded (${b.pendingConnections()})`);
    flood.stop();
  },
);

t.test('with small caps the flood exceeds the hard limit, and a valid login still connects', async (t) => {
  const { broker: b } = await broker({
    maxPendingConnections: 4,
    maxPendingPerAddress: 2,
    pendingGraceMs: 50,
  });
  t.teardown(() => b.close());
  const flood = new IdleFlood(b.port, 140);
  t.teardown(() => flood.stop());
  await sleep(300);
  let maxPending = 0;
  const sampler = setInterval(() => {
    maxPending = Math.max(maxPending, b.pendingConnections());
  }, 5);
  t.teardown(() => clearInterval(sampler));
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const { ms, client } = await timedLogin(b.url);
    times.push(ms);
    await client.endAsync(true);
  }
  clearInterval(sampler);
  t.comment(`logins: max ${Math.max(...times).toFixed(1)} ms; most pending seen ${maxPending}`);
  t.ok(
    Math.max(...times) < 2000,
    `5 logins each connected within 2 s (max ${Math.max(...times).toFixed(1)} ms)`,
  );
  t.ok(maxPending <= 32, `never more than the hard limit (4 × 8 = 32) pending (${maxPending})`);
  flood.stop();
});

t.test(
  'pending sockets beyond the per-address cap are closed, oldest first, after their grace',
  async (t) => {
    const { broker: b, refusals } = await broker({
      maxPendingPerAddress: 3,
      pendingGraceMs: 50,
      connectTimeoutMs: 30_000,
    });
    t.teardown(() => b.close());
    const idle: Idle[] = [];
    for (let i = 0; i < 6; i++) idle.push(await openIdle(b.port));
    t.teardown(() => {
      for (const s of idle) s.socket.destroy();
    });
    await settle(() => closedCount(idle) >= 3);
    t.same(
      idle.map((s) => s.closedAt !== undefined),
      [true, true, true, false, false, false],
      'the three oldest were closed, three remain',
    );
    t.equal(b.pendingConnections(), 3);
    t.equal(refusals.filter((r) => r.reason === 'too-many-pending').length, 3);
    t.match(refusals[0], { address: '127.0.0.1', detail: /more than 3 connections from this address/ });
  },
);

t.test('the total pending cap applies across addresses too', async (t) => {
  const { broker: b } = await broker({
    maxPendingConnections: 2,
    maxPendingPerAddress: 10,
    pendingGraceMs: 50,
    connectTimeoutMs: 30_000,
  });
  t.teardown(() => b.close());
  const idle: Idle[] = [];
  for (let i = 0; i < 4; i++) idle.push(await openIdle(b.port));
  t.teardown(() => {
    for (const s of idle) s.socket.destroy();
  });
  await settle(() => closedCount(idle) >= 2);
  t.equal(closedCount(idle), 2, 'two over the cap of 2 were closed');
  t.equal(b.pendingConnections(), 2);
});

t.test('an idle socket is closed after the connect timeout', async (t) => {
  const { broker: b, refusals } = await broker({ connectTimeoutMs: 300 });
  t.teardown(() => b.close());
  const s = await openIdle(b.port);
  t.teardown(() => s.socket.destroy());
  await settle(() => s.closedAt !== undefined);
  t.ok(s.closedAt !== undefined, 'closed');
  const after = (s.closedAt ?? 0) - s.openedAt;
  // The upper bound leaves room for a late timer on a loaded machine; far below the default's 2 s.
  t.ok(after >= 250 && after < 1500, `after ${after.toFixed(0)} ms (timeout 300 ms)`);
  t.ok(refusals.some((r) => r.reason === 'connect-timeout'));
  t.equal(b.pendingConnections(), 0, 'no longer counted as pending');
});

t.test(`by default an idle socket is closed after ${DEFAULT_CONNECT_TIMEOUT_MS} ms`, async (t) => {
  t.equal(DEFAULT_CONNECT_TIMEOUT_MS, 2000);
  const { broker: b } = await broker();
  t.teardown(() => b.close());
  const s = await openIdle(b.port);
  t.teardown(() => s.socket.destroy());
  await settle(() => s.closedAt !== undefined, DEFAULT_CONNECT_TIMEOUT_MS + 3000);
  const after = (s.closedAt ?? Number.POSITIVE_INFINITY) - s.openedAt;
  t.ok(
    after >= DEFAULT_CONNECT_TIMEOUT_MS - 50 && after < DEFAULT_CONNECT_TIMEOUT_MS + 1500,
    `closed after ${after.toFixed(0)} ms`,
  );
});

t.test('authenticated clients are not counted against the pending caps', async (t) => {
  const { broker: b, refusals } = await broker({
    maxPendingConnections: 2,
    maxPendingPerAddress: 2,
    pendingGraceMs: 50,
    connectTimeoutMs: 30_000,
  });
  t.teardown(() => b.close());
  const clients: MqttClient[] = [];
  t.teardown(() => Promise.all(clients.map((c) => c.endAsync(true))));
  for (let i = 0; i < 6; i++) clients.push(await connectClient(b.url, LOGIN));
  t.equal(b.pendingConnections(), 0, 'six logged-in clients, none pending');
  const idle = [await openIdle(b.port), await openIdle(b.port)];
  t.teardown(() => {
    for (const s of idle) s.socket.destroy();
  });
  await sleep(300);
  t.ok(
    idle.every((s) => s.closedAt === undefined),
    'two idle sockets, within the cap of 2, stay open beside six clients',
  );
  t.ok(
    clients.every((c) => c.connected),
    'every client is still connected',
  );
  t.equal(b.connectedClients(), 6);
  t.notOk(refusals.some((r) => r.reason === 'too-many-pending'));
});

t.test('maxConnections counts authenticated clients only; a login over it gets CONNACK 3', async (t) => {
  const { broker: b, refusals } = await broker({ maxConnections: 3, connectTimeoutMs: 30_000 });
  t.teardown(() => b.close());
  const idle: Idle[] = [];
  for (let i = 0; i < 5; i++) idle.push(await openIdle(b.port));
  t.teardown(() => {
    for (const s of idle) s.socket.destroy();
  });
  const clients: MqttClient[] = [];
  t.teardown(() => Promise.all(clients.map((c) => c.endAsync(true))));
  for (let i = 0; i < 3; i++) clients.push(await connectClient(b.url, LOGIN));
  t.pass('three logins beside five idle sockets, with maxConnections 3');
  const code = await connectClient(b.url, LOGIN).then(
    async (c) => {
      await c.endAsync(true);
      return 0;
    },
    (err: { code?: number }) => err.code ?? -1,
  );
  t.equal(code, 3, 'the fourth login: server unavailable');
  t.ok(refusals.some((r) => r.reason === 'too-many-connections'));
  await clients.pop()?.endAsync(true);
  await sleep(100);
  clients.push(await connectClient(b.url, LOGIN));
  t.pass('a slot freed is usable again');
});

t.test('a client taking over its own client id is let in at the limit', async (t) => {
  const { broker: b } = await broker({ maxConnections: 1 });
  t.teardown(() => b.close());
  const first = await connectClient(b.url, { ...LOGIN, clientId: 'planner-r1-a' });
  const closed = new Promise<void>((resolve) => first.once('close', () => resolve()));
  const second = await connectClient(b.url, { ...LOGIN, clientId: 'planner-r1-a' });
  t.teardown(() => second.endAsync(true));
  await closed;
  first.end(true);
  t.ok(second.connected, 'the new connection replaced the old one ([MQTT-3.1.4-2])');
});
