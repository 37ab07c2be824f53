/**
 * One MQTT 3.1.1 connection of the simulator (robot, motor controller, operator or observer), with the
 * credentials the broker gave that role. Connects without automatic reconnects: a scenario that loses its
 * broker has failed, and must say so rather than retry silently.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { SimulatorError } from '../errors.js';

export interface MqttEndpoint {
  url: string;
  username?: string;
  password?: string;
}

export type MessageHandler = (topic: string, payload: Buffer) => void;

export class MqttConnection {
  readonly #client: MqttClient;
  readonly #handlers: MessageHandler[] = [];

  private constructor(client: MqttClient) {
    this.#client = client;
    client.on('message', (topic, payload) => {
      for (const h of this.#handlers) h(topic, payload);
    });
  }

  static connect(endpoint: MqttEndpoint, clientIdSuffix: string, timeoutMs = 5000): Promise<MqttConnection> {
    const base = endpoint.username ?? 'pentagate-sim';
    const client = mqtt.connect(endpoint.url, {
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: timeoutMs,
      // The embedded broker wants client ids that start with `<username>-` (edge/src/broker).
      clientId: `${base}-${clientIdSuffix}-${Math.random().toString(16).slice(2, 8)}`,
      ...(endpoint.username !== undefined ? { username: endpoint.username } : {}),
      ...(endpoint.password !== undefined ? { password: endpoint.password } : {}),
    });
    return new Promise((resolve, reject) => {
      client.once('connect', () => resolve(new MqttConnection(client)));
      client.once('error', (err) => {
        client.end(true);
        reject(
          new SimulatorError(
            'TRANSPORT_FAILED',
            `cannot connect to MQTT broker ${endpoint.url} as ${base}: ${err.message}`,
          ),
        );
      });
    });
  }

  onMessage(handler: MessageHandler): void {
    this.#handlers.push(handler);
  }

  async subscribe(filters: string[]): Promise<void> {
    const granted = await this.#client.subscribeAsync(filters, { qos: 1 });
    const refused = granted.filter((g) => g.qos === 128).map((g) => g.topic);
    if (refused.length > 0) {
      throw new SimulatorError('TRANSPORT_FAILED', `broker refused the subscriptions ${refused.join(', ')}`);
    }
  }

  /** Publishes text as is (QoS 1, never retained); the text may be deliberately invalid JSON (a NaN fault). */
  async publish(topic: string, text: string): Promise<void> {
    await this.#client.publishAsync(topic, text, { qos: 1, retain: false });
  }

  get connected(): boolean {
    return this.#client.connected;
  }

  async close(): Promise<void> {
    await this.#client.endAsync(true);
  }
}
