/**
 * The edge's pino logger. Secrets must never reach a log line (ARCHITECTURE.md §6): code passes no secret to
 * the logger, and redaction is the second line of defence for the field names secrets travel under
 * (HMAC key, passwords, tokens, private keys), at the top level and one or two levels down.
 */
import pino, { type DestinationStream, type Logger } from 'pino';

const SECRET_FIELDS = [
  'hmacKey',
  'key',
  'seed',
  'privateKey',
  'password',
  'passwordHash',
  'token',
  'authorization',
  'secret',
];

/** Redaction paths: `field`, `*.field` and `*.*.field` for every secret field name. */
export const REDACTED_PATHS = SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]);

export interface EdgeLoggerOptions {
  level?: pino.LevelWithSilent;
  /** Where lines go; stdout by default. Tests pass a stream to capture them. */
  destination?: DestinationStream;
  /** Bound to every line, e.g. `{ robotId }`. */
  bindings?: Record<string, string>;
}

export function createEdgeLogger(options: EdgeLoggerOptions = {}): Logger {
  const logger = pino(
    {
      level: options.level ?? 'info',
      base: { component: 'pentagate-edge', ...options.bindings },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    options.destination ?? pino.destination(1),
  );
  return logger;
}
