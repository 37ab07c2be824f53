/**
 * Errors of the edge runtime (broker, MQTT transport, outbox, node). Codes are stable; messages say
 * what was expected and what came, and tell an operator what to do where there is something to do.
 */
import { PentagateError } from '@pentagate/protocol';

export type EdgeRuntimeErrorCode =
  | 'PORT_IN_USE'
  | 'STATE_DIR_IN_USE'
  | 'BROKER_CONFIG_INVALID'
  | 'MQTT_CONNECT_FAILED'
  | 'OUTBOX_CORRUPT'
  | 'OUTBOX_CLOSED'
  | 'OUTBOX_COMPACTED'
  | 'NODE_STATE';

export class EdgeRuntimeError extends PentagateError {
  declare readonly code: EdgeRuntimeErrorCode;

  constructor(code: EdgeRuntimeErrorCode, message: string, details?: unknown) {
    super(code, message, details);
  }
}
