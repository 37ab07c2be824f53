/**
 * Hands a command to the transport, never after its validUntil, whichever transport it is: the controller
 * refuses a late one (acceptMotorCommand), and the node must know it was not taken — for a motion command,
 * so the robot is stopped rather than left on the motion before it, which the gate no longer watches; for a
 * STOP, so a fresh one is owed. The MQTT transport checks this again as it writes to its socket; a serial
 * line and ROS 2 did not check it at all, and wrote a command that had expired while its verdict was made
 * durable as if it had been taken.
 */
import type { MotorCommand } from '@pentagate/protocol';
import { CommandExpiredError } from '../mqtt/command-expired-error.js';
import type { EdgeMetrics } from '../observability/edge-metrics.js';
import type { RobotTransport } from '../transport/robot-transport.js';

export function sendUnexpired(
  command: MotorCommand,
  nowMs: number,
  transport: RobotTransport,
  metrics: EdgeMetrics,
): Promise<void> {
  if (nowMs > command.validUntil) {
    metrics.recordCommandExpired(command.setpoints.kind === 'stop' ? 'stop' : 'motion');
    return Promise.reject(new CommandExpiredError(command.seq, command.validUntil, nowMs));
  }
  return transport.publishCommand(command);
}
