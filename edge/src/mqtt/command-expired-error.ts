/** A signed command the transport refused to put on the wire because its `validUntil` had passed. */
import { PentagateError } from '@pentagate/protocol';

export class CommandExpiredError extends PentagateError {
  constructor(seq: number, validUntil: number, nowMs: number) {
    super(
      'COMMAND_EXPIRED',
      `command seq ${seq} not published: its validUntil ${validUntil} passed ${nowMs - validUntil} ms ago`,
      { seq, validUntil, lateMs: nowMs - validUntil },
    );
  }
}
