/**
 * Counts requests in flight so that shutdown closes the store only after the last one answered: a request
 * accepted before close finishes normally and its audit entry is durable (graceful shutdown loses nothing).
 * Requests arriving once close began get 503 SHUTTING_DOWN, so a load balancer retries them elsewhere.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';

export interface Drain {
  /** Resolves when no request is in flight, or after the drain timeout. */
  drained(): Promise<void>;
}

export function registerDrain(app: FastifyInstance, options: { drainTimeoutMs: number }): Drain {
  const counted = new WeakSet<FastifyRequest>();
  let inFlight = 0;
  let closing = false;
  let wake: (() => void) | undefined;
  const finish = async (request: FastifyRequest) => {
    if (!counted.delete(request)) return;
    inFlight--;
    if (inFlight === 0) wake?.();
  };
  app.addHook('onRequest', async (request) => {
    if (closing) throw new ApiError('SHUTTING_DOWN', 'the server is shutting down; retry on another replica');
    counted.add(request);
    inFlight++;
  });
  // A keep-alive connection that was busy when close began would otherwise idle until keepAliveTimeout
  // and hold the port open; answering with `Connection: close` ends it as soon as its response is sent.
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onResponse', finish);
  app.addHook('onRequestAbort', finish);
  app.addHook('preClose', async () => {
    closing = true;
  });
  return {
    drained: () =>
      inFlight === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, options.drainTimeoutMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          }),
  };
}
