/**
 * The typed side of the one transport interface (`RobotTransport`, robot-transport.ts). The edge
 * node consumes inbound messages as (topic, JSON bytes) in the MQTT topic layout; transports that receive typed
 * values (ROS 2 messages mapped to frames and intents, serial frames) hand them over through here, so every
 * transport reaches the node's one validated path (size limit, strict JSON, gate, verdict, audit).
 *
 * Input the transport could not make sense of is still handed over, on a topic the node refuses with a
 * `rejected-input` verdict: bad input gets a verdict that names it, never silence and never a signature.
 */
import type { Intent, RobotTopics, TelemetryFrame } from '@pentagate/protocol';
import { conforms, robotTopics, SourceNameSchema } from '@pentagate/protocol';
import type { InboundHandler } from './robot-transport.js';

/** The telemetry source name used for frames that name no valid source of their own. */
export const UNNAMED_SOURCE = 'unnamed';

export class TypedInbound {
  readonly topics: RobotTopics;
  #handler: InboundHandler = () => {};
  readonly #encoder = new TextEncoder();

  constructor(robotId: string) {
    this.topics = robotTopics(robotId);
  }

  /** The node's handler (RobotTransport.onMessage). */
  setHandler(handler: InboundHandler): void {
    this.#handler = handler;
  }

  #send(topic: string, value: unknown): void {
    this.#handler(topic, this.#encoder.encode(JSON.stringify(value)));
  }

  telemetry(frame: TelemetryFrame | Record<string, unknown>): void {
    const source = (frame as { source?: unknown }).source;
    const name = typeof source === 'string' && conforms(SourceNameSchema, source) ? source : UNNAMED_SOURCE;
    this.#send(this.topics.telemetry(name), frame);
  }

  intent(intent: Intent | Record<string, unknown>): void {
    this.#send(this.topics.intent, intent);
  }

  consent(envelope: unknown): void {
    this.#send(this.topics.consent, envelope);
  }

  /** Bytes that are not even JSON: the node answers MALFORMED, naming where they came from. */
  raw(payload: Uint8Array, source = UNNAMED_SOURCE): void {
    this.#handler(this.topics.telemetry(source), payload);
  }
}
