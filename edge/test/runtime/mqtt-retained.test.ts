/**
 * A broker hands its retained message to every new subscription ([MQTT-3.3.1-6]) and the edge resubscribes on
 * every reconnect, so a retained intent — which carries no time — was judged and signed again at each start and
 * after each blip of the link, however old it was. The embedded broker and deploy/mosquitto.conf refuse retain;
 * the machine's Mosquitto (as shipped) does not, and `--mqtt` takes any broker. The transport drops retained
 * deliveries (RETAIN 1, [MQTT-3.3.1-9]) and takes live ones.
 */
import { robotTopics } from '@pentagate/protocol';
import t from 'tap';
import { MqttTransport } from '../../src/mqtt/mqtt-transport.js';
import { MOSQUITTO_URL, mosquittoSkip, mosquittoUp } from './helpers/machine-mosquitto.js';
import { connectClient } from './helpers/mqtt-clients.js';

t.test(
  'a retained intent on a broker that keeps it is never handed to the gate; a live one is',
  { skip: mosquittoSkip },
  async (t) => {
    if (!mosquittoUp(t)) return;
    const robotId = `retained-${process.pid}-${Date.now()}`;
    const topics = robotTopics(robotId);
    const planner = await connectClient(MOSQUITTO_URL);
    t.teardown(async () => {
      await planner.publishAsync(topics.intent, '', { qos: 1, retain: true }); // clears the retained one
      await planner.endAsync(true);
    });
    const stale = JSON.stringify({ intentId: 'retained-long-ago' });
    await planner.publishAsync(topics.intent, stale, { qos: 1, retain: true });

    const dropped: string[] = [];
    const transport = await MqttTransport.connect({
      url: MOSQUITTO_URL,
      robotId,
      username: `edge-${robotId}`,
      reconnectPeriodMs: 100,
      onRetainedDropped: (topic) => dropped.push(topic),
    });
    t.teardown(() => transport.close());
    const received: string[] = [];
    transport.onMessage((_topic, payload) => received.push(Buffer.from(payload).toString()));

    const live = JSON.stringify({ intentId: 'live-now' });
    await planner.publishAsync(topics.intent, live, { qos: 1 });
    const deadline = Date.now() + 5000;
    while (!received.includes(live) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    t.same(received, [live], 'only the live intent reaches the gate');
    t.same(dropped, [topics.intent], 'the retained one was dropped and reported');
  },
);
