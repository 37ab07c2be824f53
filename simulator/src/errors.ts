/**
 * The simulator's error vocabulary: one PentagateError subclass with stable codes, so the CLI can tell a
 * bad scenario file (exit 2) from a failed run (exit 1) and tests can assert on the code.
 */
import { PentagateError } from '@pentagate/protocol';

export type SimulatorErrorCode =
  | 'SCENARIO_INVALID'
  | 'SCENARIO_UNREADABLE'
  | 'PORT_IN_USE'
  | 'EDGE_START_FAILED'
  | 'EDGE_EXITED'
  | 'TRANSPORT_FAILED'
  | 'SERIAL_UNAVAILABLE'
  | 'REPORT_FAILED'
  | 'CLOUD_FAILED';

export class SimulatorError extends PentagateError {
  declare readonly code: SimulatorErrorCode;

  constructor(code: SimulatorErrorCode, message: string, details?: unknown) {
    super(code, message, details);
  }
}
