/**
 * One Server-Sent Events stream (WHATWG HTML §9.2): `event: verdict|alarm|consent`, `id:` the audit index (for a
 * verdict), `data:` one JSON line. A comment line every 15 s keeps proxies from closing an idle stream.
 * The handler hijacks the reply, so Fastify neither serialises nor ends it; the stream ends when the client
 * goes away, the server closes, or its API key no longer authenticates (checked every `keyCheckMs`: the
 * key's scope was checked when the stream opened, but a revocation must reach a stream that stays open).
 * A viewer that stops reading is cut off once MAX_BUFFERED_BYTES wait for it: the events of a busy tenant
 * would otherwise pile up in this process's memory, per stream, until it fails for every tenant. For the
 * same reason one key holds at most MAX_STREAMS_PER_KEY streams open (each holds a socket and a file
 * descriptor for as long as it lasts, which the request rate limit does not bound).
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../app/errors.js';
import type { LiveEvent, LiveHub } from './live-hub.js';

const KEEPALIVE_MS = 15_000;
/** Bytes written to a stream and not yet taken by the network, beyond which the viewer is cut off. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Live streams one API key may hold open at once (a console tab holds one). */
export const MAX_STREAMS_PER_KEY = 8;
/** How often an open stream checks that its key is still valid, by default. */
export const DEFAULT_LIVE_KEY_CHECK_MS = 5_000;

export function formatSseEvent(event: LiveEvent): string {
  const id = event.type === 'verdict' ? `id: ${event.auditIndex}\n` : '';
  return `event: ${event.type}\n${id}data: ${JSON.stringify(event)}\n\n`;
}

export function streamLiveEvents(
  hub: LiveHub,
  tenantId: string,
  robotId: string | undefined,
  request: FastifyRequest,
  reply: FastifyReply,
  keyCheck: { keyId: string; stillValid: () => Promise<boolean>; everyMs: number },
): void {
  const open = hub.streamsOf(keyCheck.keyId);
  if (open >= MAX_STREAMS_PER_KEY) {
    reply.header('retry-after', String(Math.ceil(KEEPALIVE_MS / 1000)));
    throw new ApiError(
      'RATE_LIMITED',
      `this API key already holds ${open} live streams open, the most one key may; close one first`,
    );
  }
  hub.streamOpened(keyCheck.keyId);
  reply.hijack();
  const res = reply.raw;
  // the headers the request hooks set (CORS, cors.ts) too: a hijacked reply does not send them itself
  res.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write(`: pentagate live view of ${robotId ? `robot ${robotId}` : 'every robot'}\n\n`);
  const send = (text: string) => {
    // the viewer reconnects when it reads again; what it missed is in the audit log
    if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
    else res.write(text);
  };
  const unsubscribe = hub.subscribe(tenantId, robotId, (event) => send(formatSseEvent(event)));
  const keepalive = setInterval(() => send(': keepalive\n\n'), KEEPALIVE_MS);
  keepalive.unref();
  const checking = setInterval(() => {
    keyCheck.stillValid().then(
      (valid) => {
        if (!valid) res.end(': the API key is no longer valid\n\n');
      },
      // a key that cannot be checked is not trusted: the viewer reconnects and authenticates afresh
      () => res.end(),
    );
  }, keyCheck.everyMs);
  checking.unref();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(keepalive);
    clearInterval(checking);
    unsubscribe();
    hub.streamClosed(keyCheck.keyId);
  };
  request.raw.on('close', end);
  res.on('close', end);
}
