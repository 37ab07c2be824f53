/**
 * What the edge node needs from a message transport: inbound messages by topic, and two outputs.
 * MQTT (src/mqtt), ROS 2 (src/ros) and serial lines (src/serial) implement it.
 */
import type { MotorCommand, VerdictEvent } from '@pentagate/protocol';

export type InboundHandler = (topic: string, payload: Uint8Array) => void;

export interface RobotTransport {
  /** Registers the one handler for inbound intents, telemetry and consent messages. */
  onMessage(handler: InboundHandler): void;
  /** Publishes a signed motor command (MQTT: QoS 1, not retained). Resolves when handed to the wire. */
  publishCommand(command: MotorCommand): Promise<void>;
  publishVerdict(verdict: VerdictEvent): Promise<void>;
  /** Whether messages can flow right now (for /healthz). */
  isConnected(): boolean;
  close(): Promise<void>;
}
