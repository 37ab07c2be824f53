/**
 * Errors raised before a request reaches a route — by Node's HTTP parser (not HTTP, headers too large,
 * timeouts) and by the router (a path that is not valid percent-encoded UTF-8, a path parameter longer
 * than the router takes) — answered in the documented `{ error: { code, message } }` format like every
 * other error, and recorded in the address's refusal tally.
 */
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { ApiError, errorBody } from './errors.js';
import type { RefusalTally } from './refusal-tally.js';
import type { AuditLog } from '../audit/audit-log.js';

function clientErrorOf(err: NodeJS.ErrnoException): ApiError {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return new ApiError(
      'HEADERS_TOO_LARGE',
      'the request line and headers are larger than the server accepts',
    );
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new ApiError('REQUEST_TIMEOUT', 'the request did not arrive in time; the connection is closed');
  }
  return new ApiError('MALFORMED_REQUEST', 'the request is not valid HTTP/1.1; the connection is closed');
}

/**
 * Sockets answered 408 here. A request whose headers had arrived is also in Fastify's hands, whose body
 * reader then fails with "aborted"; the error handler looks the socket up to record the refusal as the
 * 408 the caller was sent, not as a 400 nobody received.
 */
export const timedOutSockets = new WeakSet<Socket>();

/** A `clientErrorHandler` for Fastify: answers in the documented format, then closes the connection. */
export function clientErrorHandler(audit: AuditLog, tally: RefusalTally, onError: (err: unknown) => void) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    // a reset or a closed socket is the network, not a client's request
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const apiError = clientErrorOf(err);
    if (apiError.code === 'REQUEST_TIMEOUT') timedOutSockets.add(socket);
    const address = socket.remoteAddress ?? 'unknown';
    if (tally.note(address, apiError.code)) {
      const data = {
        address,
        route: '(none)',
        status: apiError.statusCode,
        code: apiError.code,
        message: apiError.message,
      };
      audit.append({ type: 'refusal', data }).catch(onError);
    }
    if (socket.writable) {
      const body = JSON.stringify(errorBody(apiError.code, apiError.message));
      socket.write(
        `HTTP/1.1 ${apiError.statusCode} ${STATUS_CODES[apiError.statusCode]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}
