/**
 * An in-process RobotTransport for node tests that are about ordering and failure handling rather than
 * the wire (the wire is covered by the e2e tests over aedes and Mosquitto): it records what the node
 * publishes, in order, and lets a test deliver inbound messages.
 */
import type { MotorCommand, VerdictEvent } from '@pentagate/protocol';
import type { InboundHandler, RobotTransport } from '../../../src/transport/robot-transport.js';

export type Published = { kind: 'cmd'; command: MotorCommand } | { kind: 'verdict'; verdict: VerdictEvent };

export class RecordingTransport implements RobotTransport {
  readonly published: Published[] = [];
  connected = true;
  #handler: InboundHandler = () => {};

  onMessage(handler: InboundHandler): void {
    this.#handler = handler;
  }

  /** Delivers raw bytes as they are, a string as UTF-8, anything else as JSON. */
  deliver(topic: string, body: unknown): void {
    if (body instanceof Uint8Array) {
      this.#handler(topic, body);
      return;
    }
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    this.#handler(topic, new TextEncoder().encode(text));
  }

  async publishCommand(command: MotorCommand): Promise<void> {
    this.published.push({ kind: 'cmd', command });
  }

  async publishVerdict(verdict: VerdictEvent): Promise<void> {
    this.published.push({ kind: 'verdict', verdict });
  }

  isConnected(): boolean {
    return this.connected;
  }

  async close(): Promise<void> {
    this.connected = false;
  }

  commands(): MotorCommand[] {
    return this.published.flatMap((p) => (p.kind === 'cmd' ? [p.command] : []));
  }

  verdicts(): VerdictEvent[] {
    return this.published.flatMap((p) => (p.kind === 'verdict' ? [p.verdict] : []));
  }
}
