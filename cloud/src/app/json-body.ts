/**
 * The one body parser: strict JSON via `readJson` (@pentagate/protocol) on the raw bytes — bad UTF-8 is
 * refused, never replaced by U+FFFD; duplicate member names, lone surrogates, numbers that overflow a
 * double, integers beyond 2^53 - 1, nesting deeper than 64 and `__proto__` members (prototype poisoning)
 * are refused (I-JSON, RFC 7493). A body declared in another charset than UTF-8 is refused with 415: JSON
 * exchanged between systems is UTF-8 (RFC 8259 §8.1). So is a body sent with a content coding (gzip, br…): the
 * server decodes none, and reading compressed bytes as JSON would misreport the problem (RFC 9110 §15.5.16).
 */
import { readJson } from '@pentagate/protocol';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.js';

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

/** Refuses a Content-Type whose charset parameter names anything but UTF-8. */
export function checkCharset(contentType: string | undefined): void {
  const charset = contentType === undefined ? undefined : CHARSET.exec(contentType)?.[1];
  if (charset === undefined || /^utf-?8$/i.test(charset)) return;
  throw new ApiError(
    'UNSUPPORTED_MEDIA_TYPE',
    `request body: expected application/json in UTF-8 (RFC 8259 §8.1), got charset ${JSON.stringify(charset.slice(0, 40))}`,
  );
}

/** Refuses a body sent with a content coding other than `identity`. */
export function checkContentEncoding(contentEncoding: string | undefined): void {
  if (contentEncoding === undefined || /^\s*(identity)?\s*$/i.test(contentEncoding)) return;
  throw new ApiError(
    'UNSUPPORTED_MEDIA_TYPE',
    `request body: Content-Encoding ${JSON.stringify(contentEncoding.slice(0, 40))} is not supported; send the JSON unencoded`,
  );
}

export function parseJsonBody(body: string | Uint8Array, maxBytes: number): unknown {
  if (body.length === 0) throw new ApiError('INVALID_JSON', 'request body: expected JSON, got an empty body');
  try {
    return readJson(body, { what: 'request body', maxBytes });
  } catch (err) {
    throw new ApiError('INVALID_JSON', (err as Error).message);
  }
}

export function registerJsonBodyParser(app: FastifyInstance, bodyLimitBytes: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: bodyLimitBytes },
    (request, body, done) => {
      try {
        checkContentEncoding(request.headers['content-encoding']);
        checkCharset(request.headers['content-type']);
        done(null, parseJsonBody(body as Buffer, bodyLimitBytes));
      } catch (err) {
        done(err as Error, undefined);
      }
    },
  );
}
