/** Real mqtt.js clients for the runtime tests: connect, subscribe, and wait for one message. */
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';

export interface TestClientOptions {
  username?: string;
  password?: string;
  clientId?: string;
}

/** Connects without reconnecting; rejects with the CONNACK error when the broker refuses. */
export function connectClient(url: string, options: TestClientOptions = {}): Promise<MqttClient> {
  const opts: IClientOptions = {
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 20_000,
    clientId: options.clientId ?? `${options.username ?? 'anon'}-${Math.random().toString(16).slice(2)}`,
    ...(options.username !== undefined ? { username: options.username } : {}),
    ...(options.password !== undefined ? { password: options.password } : {}),
  };
  const client = mqtt.connect(url, opts);
  return new Promise((resolve, reject) => {
    client.once('connect', () => resolve(client));
    client.once('error', (err) => {
      client.end(true);
      reject(err);
    });
  });
}

/** Subscribes and resolves with the granted QoS per filter (128 = refused). */
export async function subscribeGranted(client: MqttClient, filter: string): Promise<number> {
  try {
    const granted = await client.subscribeAsync(filter, { qos: 1 });
    return granted[0]?.qos ?? -1;
  } catch (err) {
    // mqtt.js 5 turns a SUBACK failure code into an error carrying the packet.
    const granted = (err as { packet?: { granted?: unknown[] } }).packet?.granted;
    if (Array.isArray(granted) && typeof granted[0] === 'number') return granted[0];
    throw err;
  }
}

/** The next message on a topic matching `predicate`, or a rejection after `timeoutMs`. */
export function nextMessage(
  client: MqttClient,
  predicate: (topic: string, payload: Buffer) => boolean = () => true,
  timeoutMs = 20_000,
): Promise<{ topic: string; payload: Buffer }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off('message', onMessage);
      reject(new Error(`no matching message within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (topic: string, payload: Buffer) => {
      if (!predicate(topic, payload)) return;
      clearTimeout(timer);
      client.off('message', onMessage);
      resolve({ topic, payload });
    };
    client.on('message', onMessage);
  });
}

/** Resolves when the broker closes the client's connection. */
export function closedByBroker(client: MqttClient, timeoutMs = 20_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`connection still open after ${timeoutMs} ms`)),
      timeoutMs,
    );
    client.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The part of a tap test these helpers need: somewhere to register cleanup. */
export interface Teardown {
  teardown(fn: () => unknown): void;
}

/**
 * Keeps every message a client receives, so a test can wait for "the next command" or "the verdict for
 * intent X" without racing the broker.
 */
export class MessageInbox {
  readonly #messages: { topic: string; text: string; taken: boolean }[] = [];
  readonly #waiters = new Set<() => void>();

  constructor(client: MqttClient) {
    client.on('message', (topic, payload) => {
      this.#messages.push({ topic, text: payload.toString('utf8'), taken: false });
      for (const wake of this.#waiters) wake();
    });
  }

  /** The first not yet taken message on `topic` whose parsed JSON satisfies `predicate`. */
  next<T = Record<string, unknown>>(
    topic: string,
    predicate: (message: T) => boolean = () => true,
    timeoutMs = 20_000,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      const look = (): boolean => {
        for (const m of this.#messages) {
          if (m.taken || m.topic !== topic) continue;
          const parsed = JSON.parse(m.text) as T;
          if (!predicate(parsed)) continue;
          m.taken = true;
          resolve(parsed);
          return true;
        }
        return false;
      };
      if (look()) return;
      const timer = setTimeout(() => {
        this.#waiters.delete(wake);
        reject(new Error(`no matching message on ${topic} within ${timeoutMs} ms`));
      }, timeoutMs);
      const wake = () => {
        if (!look()) return;
        clearTimeout(timer);
        this.#waiters.delete(wake);
      };
      this.#waiters.add(wake);
    });
  }
}
