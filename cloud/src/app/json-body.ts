/**
 * The one body parser: strict JSON via `readJson` (@pentagate/protocol) on the raw bytes — bad UTF-8 is
 * refused, never replaced by U+FFFD; duplicate member names, lone surrogates, numbers that overflow a
 * double, integers beyond 2^53 - 1, nesting deeper than 64 and `__proto__` members (prototype poisoning)
 * are refused (I-JSON, RFC 7493). A body declared in another charset than UTF-8 is refused with 415: JSON
 * exchanged between systems is UTF-8 (RFC 8259 §8.1). So is a body sent with a content coding (gzip, br…): the
 * server decodes none, and reading compressed bytes as JSON would misreport the problem (RFC 9110 §15.5.16).
 * The body is read as JSON under `application/json`, `text/plain` or no Content-Type (checkMediaType); any
 * other media type is refused with 415.
 */
import { InvalidInputError, JsonTooLargeError, readJson } from '@pentagate/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BodyByteBudget } from './body-byte-budget.js';
import { ApiError } from './errors.js';
import { ROUTE_SCOPES } from './scopes.js';

/**
 * Most object members and array elements in the body of an agent route (register, propose, selfcorrect,
 * kernel authorize and execute). Every string of a tool call is screened and every value validated,
 * canonicalised and digested several times: 55,000 one-word arguments in 790 KB held the event loop
 * ~0.8 s per request for every tenant, and a call with more than 4,096 strings is refused as
 * unscannable anyway (pentagon/string-fields.ts). Over the limit: 413 BODY_TOO_LARGE before any of it.
 */
export const MAX_AGENT_BODY_VALUES = 10_000;

/**
 * Most object members and array elements in the body of an edge's fleet route (shipping audit records,
 * posting a consent request). A record of the gate's own is about 65 values in 1.5 KB, so a full batch of
 * 500 is about 33,000 and no real upload within the byte limit comes near this; without it, 1 MiB of `{}`
 * in one record's evidence (340,000 values) held the event loop 240–800 ms per request for every tenant,
 * before the chain was even looked at. Over the limit: 413 BODY_TOO_LARGE before any of it.
 */
export const MAX_EDGE_BODY_VALUES = 100_000;

/** The value limit of a route, by the scopes it is open to; undefined: the byte limit alone. */
function maxValuesOf(scopes: readonly string[] | undefined): number | undefined {
  if (scopes === ROUTE_SCOPES.agent) return MAX_AGENT_BODY_VALUES;
  if (scopes === ROUTE_SCOPES.edge) return MAX_EDGE_BODY_VALUES;
  return undefined;
}

type ContentTypeParser = (
  request: FastifyRequest,
  body: string | Buffer,
  done: (err: Error | null, body?: unknown) => void,
) => void;

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

/**
 * The media types whose body is read as JSON: `application/json`, and also `text/plain` and no Content-Type
 * at all — what `fetch` and most HTTP clients send for a string body when the caller sets no header. The
 * specification says only that the routes take a JSON body (§4), so a client written from it alone may
 * well send either; the body is the same strict JSON whatever the header. (Accepting them opens no
 * cross-site request: every route that reads a body needs the Authorization header, which a browser
 * never sends cross-site without a preflight.) Anything else is 415.
 */
export function checkMediaType(contentType: string | undefined): void {
  if (contentType === undefined) return;
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  if (mediaType === 'application/json' || mediaType === 'text/plain' || mediaType === '') return;
  throw new ApiError(
    'UNSUPPORTED_MEDIA_TYPE',
    `request body: expected Content-Type application/json, got ${JSON.stringify(mediaType.slice(0, 60))}`,
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

export function parseJsonBody(body: string | Uint8Array, maxBytes: number, maxValues?: number): unknown {
  if (body.length === 0) throw new ApiError('INVALID_JSON', 'request body: expected JSON, got an empty body');
  try {
    // U+0000 refused: PostgreSQL text cannot hold it, so a value or member name carrying it could be
    // neither stored nor named in the refusal record of a later check (503 instead of the 4xx)
    return readJson(body, {
      what: 'request body',
      maxBytes,
      refuseNul: true,
      ...(maxValues ? { maxValues } : {}),
    });
  } catch (err) {
    // readJson names the refused value's JSON Pointer in details.issues, as schema validation does
    const details = err instanceof InvalidInputError ? err.details : undefined;
    throw new ApiError(
      err instanceof JsonTooLargeError ? 'BODY_TOO_LARGE' : 'INVALID_JSON',
      (err as Error).message,
      details,
    );
  }
}

/**
 * A body refused after it was read to its end, handed on as the parsed body and thrown in preValidation:
 * Fastify answers an error of the parser itself with `Connection: close` (more of the body might follow),
 * but this parser reads the whole body first (parseAs buffer), so nothing of the request is left on the
 * socket and the connection persists for the client's next request as HTTP/1.1 has it (RFC 9112 §9.3).
 */
class BodyRefusal {
  constructor(readonly error: Error) {}
}

/** `budget`: body bytes per API key (body-byte-budget.ts), charged before the body is parsed. */
export function registerJsonBodyParser(
  app: FastifyInstance,
  bodyLimitBytes: number,
  budget?: BodyByteBudget,
): void {
  app.removeAllContentTypeParsers();
  const parse: ContentTypeParser = (request, body, done) => {
    try {
      checkMediaType(request.headers['content-type']);
      checkContentEncoding(request.headers['content-encoding']);
      checkCharset(request.headers['content-type']);
      // a request without a valid key was refused before its body was read, unless its route is open
      const keyId = request.caller?.keyId;
      if (budget && keyId !== undefined) budget.charge(keyId, (body as Buffer).length, Date.now());
      done(
        null,
        parseJsonBody(body as Buffer, bodyLimitBytes, maxValuesOf(request.routeOptions.config?.scopes)),
      );
    } catch (err) {
      done(null, new BodyRefusal(err as Error));
    }
  };
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: bodyLimitBytes }, parse);
  // every other Content-Type, and none at all: checkMediaType lets through the two a plain client sends
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: bodyLimitBytes }, parse);
  // First the refusal of a body read to its end (BodyRefusal). Then: a request with neither a Content-Type
  // nor any bytes has no body to parse (bytes without a Content-Type are parsed above), and a route's schema
  // would see null: "expected object, got null" to a caller who forgot the body.
  app.addHook('preValidation', async (request) => {
    if (request.body instanceof BodyRefusal) throw request.body.error;
    if (request.routeOptions.schema?.body === undefined || request.headers['content-type'] !== undefined)
      return;
    if (request.body === undefined || request.body === null) {
      throw new ApiError(
        'INVALID_JSON',
        'request body: expected JSON (Content-Type application/json), got no body',
      );
    }
  });
}
