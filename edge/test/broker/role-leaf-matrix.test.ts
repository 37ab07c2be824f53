/**
 * Every role × every leaf, on the embedded broker and on a real Mosquitto running the generated ACL: who
 * may publish where, and who receives what, with one source bound to its publisher by the robot profile. The expected tables are written out by hand here (the
 * specification), not derived from the rule code under test.
 */
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import type { MqttClient } from 'mqtt';
import { startEmbeddedBroker } from '../../src/broker/embedded-broker.js';
import { withProfilePublishers } from '../../src/broker/profile-publishers.js';
import { connectClient, subscribeGranted } from '../runtime/helpers/mqtt-clients.js';
import { mosquittoMissing, startOwnMosquitto } from './helpers/own-mosquitto.js';

const P = 'pentagate/v1';
const USERS = [
  { username: 'edge-r1', role: 'edge', robotId: 'r1' },
  { username: 'lidar-r1', role: 'sensor', robotId: 'r1', sources: ['proximity-front'] },
  { username: 'planner-r1', role: 'planner', robotId: 'r1' },
  { username: 'ctl-r1', role: 'controller', robotId: 'r1', sources: ['joints'] },
  { username: 'robot-r1', role: 'robot', robotId: 'r1' },
  { username: 'sim-r1', role: 'simulator', robotId: 'r1' },
  { username: 'ops-r1', role: 'operator', robotId: 'r1' },
  { username: 'ops', role: 'operator' },
  { username: 'watch-r1', role: 'watcher', robotId: 'r1' },
  { username: 'edge-r2', role: 'edge', robotId: 'r2' },
  { username: 'ctl-r2', role: 'controller', robotId: 'r2' },
  { username: 'robot-r2', role: 'robot', robotId: 'r2' },
] as const;
type Username = (typeof USERS)[number]['username'];
const password = (username: string) => `pw-${username}-7f3a`;

const TOPICS = {
  'r1/cmd': `${P}/r1/cmd`,
  'r1/verdict': `${P}/r1/verdict`,
  'r1/intent': `${P}/r1/intent`,
  'r1/consent': `${P}/r1/consent`,
  'r1/proximity-front': `${P}/r1/telemetry/proximity-front`,
  'r1/joints': `${P}/r1/telemetry/joints`,
  'r1/imu': `${P}/r1/telemetry/imu`,
  'r2/cmd': `${P}/r2/cmd`,
  'r2/verdict': `${P}/r2/verdict`,
  'r2/intent': `${P}/r2/intent`,
  'r2/consent': `${P}/r2/consent`,
  'r2/imu': `${P}/r2/telemetry/imu`,
} as const;
type TopicKey = keyof typeof TOPICS;

/** Who may publish each topic (the specification, by hand). */
const PUBLISHERS: Record<Username, readonly TopicKey[]> = {
  'edge-r1': ['r1/cmd', 'r1/verdict'],
  'lidar-r1': ['r1/proximity-front'],
  'planner-r1': ['r1/intent'],
  'ctl-r1': ['r1/joints'],
  // A robot account publishes every source no other identity is bound to, never a bound one. The robot
  // profile binds imu to robot-r1 (sources[].publisher), so the simulator account may not publish it.
  'robot-r1': ['r1/intent', 'r1/imu'],
  'sim-r1': ['r1/intent'],
  'ops-r1': ['r1/consent'],
  ops: ['r1/consent', 'r2/consent'],
  'watch-r1': [],
  'edge-r2': ['r2/cmd', 'r2/verdict'],
  'ctl-r2': [],
  'robot-r2': ['r2/intent', 'r2/imu'],
};

/** What each identity may receive (the specification, by hand). */
const READERS: Record<Username, readonly TopicKey[]> = {
  'edge-r1': ['r1/intent', 'r1/consent', 'r1/proximity-front', 'r1/joints', 'r1/imu'],
  'lidar-r1': [],
  'planner-r1': ['r1/verdict'],
  'ctl-r1': ['r1/cmd'],
  'robot-r1': ['r1/cmd', 'r1/verdict'],
  'sim-r1': ['r1/cmd', 'r1/verdict'],
  'ops-r1': ['r1/verdict'],
  ops: ['r1/verdict', 'r2/verdict'],
  'watch-r1': ['r1/verdict'],
  'edge-r2': ['r2/intent', 'r2/consent', 'r2/imu'],
  'ctl-r2': ['r2/cmd'],
  'robot-r2': ['r2/cmd', 'r2/verdict'],
};

/** Wildcard filters and the embedded broker's SUBACK for them (Mosquitto grants and filters on delivery). */
const WILDCARD_FILTERS: Record<string, readonly Username[]> = {
  [`${P}/r1/telemetry/+`]: ['edge-r1'],
  [`${P}/+/verdict`]: ['ops'],
  [`${P}/r1/#`]: [],
  [`${P}/#`]: [],
  '#': [],
  '$SYS/#': [],
};

const usernames = USERS.map((u) => u.username) as Username[];
const publisherOf = (topic: TopicKey) => usernames.find((u) => PUBLISHERS[u].includes(topic)) as Username;
const readerOf = (topic: TopicKey) => usernames.find((u) => READERS[u].includes(topic)) as Username;

interface Target {
  url: string;
  /** The embedded broker answers a refused SUBSCRIBE with 0x80 and closes on a refused PUBLISH. */
  embedded: boolean;
}

class Session {
  readonly seen = new Set<string>();
  private constructor(readonly client: MqttClient) {
    client.on('message', (_topic, payload) => this.seen.add(payload.toString()));
  }
  static async open(target: Target, username: string): Promise<Session> {
    return new Session(await connectClient(target.url, { username, password: password(username) }));
  }
  async waitFor(payload: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.seen.has(payload)) {
      if (Date.now() > deadline) throw new Error(`${payload} not received within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

/** Publishes and resolves once the broker has handled it: PUBACK, or the connection closed. */
function publishSettled(
  client: MqttClient,
  topic: string,
  payload: string,
  retain = false,
): Promise<'acked' | 'closed'> {
  return new Promise((resolve) => {
    const onClose = () => resolve('closed');
    client.once('close', onClose);
    client.publish(topic, payload, { qos: 1, retain }, (err) => {
      client.off('close', onClose);
      resolve(err ? 'closed' : 'acked');
    });
  });
}

async function walkPublish(t: Test, target: Target): Promise<void> {
  const observers = new Map<Username, Session>();
  const observer = async (u: Username) => {
    let s = observers.get(u);
    if (!s) {
      s = await Session.open(target, u);
      await s.client.subscribeAsync(
        READERS[u].map((k) => TOPICS[k]),
        { qos: 1 },
      );
      observers.set(u, s);
    }
    return s;
  };
  t.teardown(() => Promise.all([...observers.values()].map((s) => s.client.endAsync(true))));
  const cases: Array<{ who: Username; topic: TopicKey; retain: boolean }> = [];
  for (const who of usernames)
    for (const topic of Object.keys(TOPICS) as TopicKey[]) cases.push({ who, topic, retain: false });
  // Nobody retains: a retained command or intent would be replayed to every later subscriber.
  cases.push(
    { who: 'edge-r1', topic: 'r1/cmd', retain: true },
    { who: 'planner-r1', topic: 'r1/intent', retain: true },
  );
  for (const { who, topic, retain } of cases) {
    const allowed = PUBLISHERS[who].includes(topic) && !retain;
    const watch = await observer(readerOf(topic));
    const attempt = `${who}→${topic}${retain ? ' (retained)' : ''}:${randomUUID()}`;
    const client = (await Session.open(target, who)).client;
    const settled = await publishSettled(client, TOPICS[topic], attempt, retain);
    if (allowed) {
      await watch.waitFor(attempt);
      t.equal(settled, 'acked', `${who} may publish ${topic}`);
    } else {
      if (target.embedded) t.equal(settled, 'closed', `[MQTT-3.3.5-2] ${who} is disconnected for ${topic}`);
      // Barrier: a message the rightful publisher sends afterwards reaches the reader; the refused one,
      // handled before it, must not have.
      const sentinel = `sentinel:${randomUUID()}`;
      const rightful = await Session.open(target, publisherOf(topic));
      await publishSettled(rightful.client, TOPICS[topic], sentinel);
      await watch.waitFor(sentinel);
      await rightful.client.endAsync(true);
      t.notOk(watch.seen.has(attempt), `${who} may not publish ${topic}${retain ? ' retained' : ''}`);
    }
    await client.endAsync(true);
  }
}

async function walkSubscribe(t: Test, target: Target): Promise<void> {
  for (const who of usernames) {
    const session = await Session.open(target, who);
    const filters = [...Object.values(TOPICS), ...Object.keys(WILDCARD_FILTERS)];
    for (const filter of filters) {
      const granted = await subscribeGranted(session.client, filter);
      if (!target.embedded) continue;
      const key = (Object.keys(TOPICS) as TopicKey[]).find((k) => TOPICS[k] === filter);
      const expected = key ? READERS[who].includes(key) : (WILDCARD_FILTERS[filter] ?? []).includes(who);
      t.equal(
        granted,
        expected ? 1 : 128,
        `${who} subscribes ${filter}: ${expected ? 'granted' : 'refused (0x80)'}`,
      );
    }
    const sent = new Map<TopicKey, string>();
    for (const topic of Object.keys(TOPICS) as TopicKey[]) {
      const payload = `to ${who} on ${topic}:${randomUUID()}`;
      sent.set(topic, payload);
      const publisher = await Session.open(target, publisherOf(topic));
      const reader = await Session.open(target, readerOf(topic));
      await reader.client.subscribeAsync(TOPICS[topic], { qos: 1 });
      await publishSettled(publisher.client, TOPICS[topic], payload);
      await reader.waitFor(payload);
      await Promise.all([publisher.client.endAsync(true), reader.client.endAsync(true)]);
    }
    for (const topic of READERS[who]) await session.waitFor(sent.get(topic) as string);
    // Barrier: a SUBACK queued after every delivery above; anything unreadable would have come first.
    await subscribeGranted(session.client, TOPICS['r1/cmd']);
    const received = (Object.keys(TOPICS) as TopicKey[]).filter((k) =>
      session.seen.has(sent.get(k) as string),
    );
    t.same(received.sort(), [...READERS[who]].sort(), `${who} receives exactly what its role reads`);
    await session.client.endAsync(true);
  }
}

/** The users table both brokers get: USERS with passwords, and the profile's publisher binding applied. */
function brokerTable(): Array<Record<string, unknown> & { username: string; password: string }> {
  const table = USERS.map((u) => ({
    ...u,
    ...('sources' in u ? { sources: [...u.sources] } : {}),
    password: password(u.username),
  }));
  return withProfilePublishers(table, {
    robotId: 'r1',
    sources: [{ name: 'imu', kind: 'pose', maxAgeMs: 1000, publisher: 'robot-r1' }],
  });
}

const targets: Array<{
  name: string;
  start: () => Promise<Target & { stop(): Promise<void> }>;
  skip?: string;
}> = [
  {
    name: 'embedded broker',
    async start() {
      const broker = await startEmbeddedBroker({ port: 0, users: brokerTable() as never });
      return { url: broker.url, embedded: true, stop: () => broker.close() };
    },
  },
  {
    name: 'Mosquitto with the generated ACL',
    async start() {
      const mosquitto = await startOwnMosquitto(brokerTable());
      return { url: mosquitto.url, embedded: false, stop: () => mosquitto.stop() };
    },
  },
];

const missing = mosquittoMissing();
for (const target of targets) {
  const mosquitto = !target.name.startsWith('embedded');
  t.test(
    target.name,
    { skip: mosquitto && missing && process.env.CI !== 'true' ? `Mosquitto: ${missing}` : false },
    async (t) => {
      if (mosquitto && missing) {
        t.fail(`CI=true but ${missing}`);
        return;
      }
      const running = await target.start();
      t.teardown(() => running.stop());
      t.test('publishing: every role on every leaf', (t) => walkPublish(t, running));
      t.test('receiving: every role on every leaf', (t) => walkSubscribe(t, running));
    },
  );
}
