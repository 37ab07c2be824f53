/**
 * The one body parser: strict JSON via `readJson` (@pentagate/protocol) — bad UTF-8, syntax errors and
 * integers beyond 2^53 - 1 are refused instead of silently rounded (a rounded amount must never be signed,
 * RFC 7493 §2.2) — plus refusal of `__proto__` keys, which could reach an object spread later
 * (prototype poisoning).
 */
import { readJson } from '@pentagate/protocol';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.js';

const SUSPICIOUS_KEY = /"__proto__"\s*:/;

function hasProtoKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasProtoKey);
  for (const key of Object.keys(value)) {
    if (key === '__proto__') return true;
    if (hasProtoKey((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

export function parseJsonBody(text: string, maxBytes: number): unknown {
  if (text.length === 0) throw new ApiError('INVALID_JSON', 'request body: expected JSON, got an empty body');
  let value: unknown;
  try {
    value = readJson(text, { what: 'request body', maxBytes });
  } catch (err) {
    throw new ApiError('INVALID_JSON', (err as Error).message);
  }
  if (SUSPICIOUS_KEY.test(text) && hasProtoKey(value)) {
    throw new ApiError(
      'INVALID_JSON',
      'request body: expected no "__proto__" keys, got one (prototype poisoning)',
    );
  }
  return value;
}

export function registerJsonBodyParser(app: FastifyInstance, bodyLimitBytes: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: bodyLimitBytes },
    (_request, body, done) => {
      try {
        done(null, parseJsonBody(body as string, bodyLimitBytes));
      } catch (err) {
        done(err as Error, undefined);
      }
    },
  );
}
