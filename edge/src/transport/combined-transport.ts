/**
 * Several transports as one: a robot whose sensors are on ROS 2 and whose motor controller sits on a serial line
 * (or any other mix) is served by one edge node. Inbound messages from every transport reach the node's one
 * handler; verdicts go out on every transport (each decides what it does with them: ROS 2 publishes them and
 * their diagnostics, a serial line only when asked); signed commands go out on exactly one, the controller's,
 * so a controller never sees a command twice and the command sequence stays one stream.
 *
 * `isConnected` is the controller's transport: the node's shutdown STOP and /healthz follow the line commands
 * travel on. An input transport that drops shows up as stale telemetry, on which the gates fail closed.
 */
import type { MotorCommand, VerdictEvent } from '@pentagate/protocol';
import type { InboundHandler, RobotTransport } from './robot-transport.js';

export type TransportName = 'mqtt' | 'ros2' | 'serial';

export const TRANSPORT_NAMES: readonly TransportName[] = ['mqtt', 'ros2', 'serial'];

export interface NamedTransport {
  name: TransportName;
  transport: RobotTransport;
}

export class CombinedTransport implements RobotTransport {
  readonly #all: readonly NamedTransport[];
  readonly #commands: RobotTransport;
  readonly commandsOn: TransportName;

  constructor(transports: readonly NamedTransport[], commandsOn: TransportName) {
    const commands = transports.find((t) => t.name === commandsOn);
    if (!commands) throw new Error(`commands transport ${commandsOn} is not among the transports`);
    this.#all = transports;
    this.#commands = commands.transport;
    this.commandsOn = commandsOn;
  }

  get names(): TransportName[] {
    return this.#all.map((t) => t.name);
  }

  /** One transport by name (for its counters and state). */
  get(name: TransportName): RobotTransport | undefined {
    return this.#all.find((t) => t.name === name)?.transport;
  }

  onMessage(handler: InboundHandler): void {
    for (const t of this.#all) t.transport.onMessage(handler);
  }

  publishCommand(command: MotorCommand): Promise<void> {
    return this.#commands.publishCommand(command);
  }

  /** Publishes on every transport; rejects with the first failure after all have been tried. */
  async publishVerdict(verdict: VerdictEvent): Promise<void> {
    const results = await Promise.allSettled(this.#all.map((t) => t.transport.publishVerdict(verdict)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  isConnected(): boolean {
    return this.#commands.isConnected();
  }

  /** Each transport's state, for the log. */
  states(): Record<string, 'connected' | 'disconnected'> {
    return Object.fromEntries(
      this.#all.map((t) => [t.name, t.transport.isConnected() ? 'connected' : 'disconnected']),
    );
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.#all.map((t) => t.transport.close()));
  }
}
