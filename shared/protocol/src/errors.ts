/**
 * One error vocabulary for every Pentagate package (the fastify `lib/errors.js` habit):
 * a stable code, a message that says what was expected and what came, and optional details.
 * Codes are SCREAMING_SNAKE and never change meaning once published.
 */
export class PentagateError extends Error {
  readonly code: string;
  readonly details: unknown;

  constructor(code: string, message: string, details?: unknown) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }
}

/** Input from outside (a file, a message, a body) is not of the expected form. */
export class InvalidInputError extends PentagateError {
  constructor(message: string, details?: unknown) {
    super('INVALID_INPUT', message, details);
  }
}

/**
 * A command line that does not fit the command's usage. The CLI exits 2 with one line; with `showUsage`
 * (the command line itself cannot be read: unknown option, missing required option, argument count) it adds
 * the usage synopsis as a second line.
 */
export class UsageError extends PentagateError {
  readonly showUsage: boolean;

  constructor(message: string, options: { showUsage?: boolean } = {}) {
    super('USAGE', message);
    this.showUsage = options.showUsage ?? false;
  }
}

/** Describes a value for an error message: its type and, for short values, the value itself. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array of length ${value.length}`;
  if (value instanceof Uint8Array) return `Uint8Array of length ${value.length}`;
  switch (typeof value) {
    case 'string':
      return value.length <= 40 ? JSON.stringify(value) : `string of length ${value.length}`;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'undefined':
      return 'nothing';
    default:
      return typeof value;
  }
}
