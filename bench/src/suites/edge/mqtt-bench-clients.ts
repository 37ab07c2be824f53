/** mqtt.js clients for the edge benchmarks: connect without reconnecting, wait for one matching message. */
import { disableNagle } from '@pentagate/edge/commands';
import mqtt, { type MqttClient } from 'mqtt';

export async function connect(url: string, username: string, password: string): Promise<MqttClient> {
  const client = await mqtt.connectAsync(url, {
    protocolVersion: 4,
    username,
    password,
    clientId: `${username}-${process.pid}-${Math.random().toString(16).slice(2, 8)}`,
    reconnectPeriod: 0,
  });
  disableNagle(client);
  return client;
}

/** Resolves with the next message on `topic` whose text passes `accept`. */
export function nextMessage(
  client: MqttClient,
  topic: string,
  accept: (text: string) => boolean,
  timeoutMs = 5000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off('message', onMessage);
      reject(new Error(`edge bench: nothing on ${topic} within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (t: string, payload: Buffer) => {
      if (t !== topic) return;
      const text = payload.toString('utf8');
      if (!accept(text)) return;
      clearTimeout(timer);
      client.off('message', onMessage);
      resolve(text);
    };
    client.on('message', onMessage);
  });
}
