/**
 * A connection that sends no request is closed after the request time-out. Node times a request from its
 * first byte (`requestTimeout`, `headersTimeout`), so a connection that never sends one held its socket and
 * a file descriptor for as long as the client liked — measured against `cloud serve`: still open after
 * 130 s, with no refusal recorded, since no request was ever made. Once a request begins, Node's own limits
 * take over (408), and between requests its keep-alive time-out.
 */
import type { Server } from 'node:http';

export function closeSilentConnections(server: Server, requestTimeoutMs: number): void {
  // with no listener of the server's own 'timeout', Node destroys a socket whose time-out passes
  server.on('connection', (socket) => socket.setTimeout(requestTimeoutMs));
  server.on('request', (request) => request.socket.setTimeout(0));
}
