/** Errors raised by a store: a write that cannot be made durable, a broken invariant, a bad --db URL. */
import { PentagateError } from '@pentagate/protocol';

export class StoreError extends PentagateError {
  constructor(message: string, details?: unknown) {
    super('STORE_UNAVAILABLE', message, details);
  }
}
