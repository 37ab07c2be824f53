/**
 * Errors of the edge transports (ROS 2, MCAP recordings, serial lines). Codes are stable; messages say what
 * was expected and what came, and what an operator can do about it.
 */
import { PentagateError } from '@pentagate/protocol';

export type TransportErrorCode =
  | 'ROS2_UNAVAILABLE'
  | 'ROS2_BINDING_INVALID'
  | 'MCAP_UNREADABLE'
  | 'MCAP_WRITE_FAILED'
  | 'SERIAL_OPEN_FAILED'
  | 'SERIAL_FRAME_INVALID'
  | 'TRANSPORT_CLOSED'
  | 'PUBLISH_UNACKNOWLEDGED'
  | 'FOXGLOVE_LISTEN_FAILED';

export class TransportError extends PentagateError {
  declare readonly code: TransportErrorCode;

  constructor(code: TransportErrorCode, message: string, details?: unknown) {
    super(code, message, details);
  }
}
