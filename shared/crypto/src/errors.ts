/**
 * The crypto package's error vocabulary. A signature, MAC or proof that does not verify is a
 * SignatureError (code SIGNATURE_INVALID); bytes or text of the wrong form are InvalidInputError
 * (from @pentagate/protocol). Both are PentagateErrors, so the CLI prints one line and no stack.
 */
import { InvalidInputError, PentagateError, describeValue } from '@pentagate/protocol';

/** A signature, MAC, note or proof that does not verify against the trusted keys. */
export class SignatureError extends PentagateError {
  constructor(message: string, details?: unknown) {
    super('SIGNATURE_INVALID', message, details);
  }
}

/**
 * Asserts `value` is a Uint8Array (of `length` bytes when given), in the noble habit:
 * "seed: expected 32 bytes, got 31".
 */
export function assertBytes(value: unknown, what: string, length?: number): Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new InvalidInputError(`${what}: expected a Uint8Array, got ${describeValue(value)}`);
  }
  if (length !== undefined && value.length !== length) {
    throw new InvalidInputError(`${what}: expected ${length} bytes, got ${value.length}`);
  }
  return value;
}
