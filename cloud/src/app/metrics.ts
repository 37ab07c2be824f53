/**
 * Prometheus metrics (prom-client) on a registry of the app's own, so several apps in one process (tests)
 * never collide. Labels use the route pattern, never the raw URL, so ids cannot blow up cardinality.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { requireMetricsToken } from './metrics-token.js';

export interface CloudMetrics {
  registry: Registry;
  decisions: Counter<'route' | 'outcome'>;
}

export function registerMetrics(
  app: FastifyInstance,
  options: { defaultMetrics: boolean; token?: string | undefined },
): CloudMetrics {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'pentagate_' });
  const requests = new Counter({
    name: 'pentagate_http_requests_total',
    help: 'HTTP requests by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'pentagate_http_request_duration_seconds',
    help: 'HTTP request duration by route pattern',
    labelNames: ['route'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });
  const decisions = new Counter({
    name: 'pentagate_decisions_total',
    help: 'Governance decisions by route and outcome',
    labelNames: ['route', 'outcome'] as const,
    registers: [registry],
  });
  // One labelled child per route × method × status, made once: prom-client hashes the label object on
  // every inc/observe otherwise (a few µs per request, measured under load). The set is bounded by the
  // route patterns, never by raw URLs.
  const children = new Map<string, { count(): void; observe(seconds: number): void }>();
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = String(reply.statusCode);
    const key = `${route} ${request.method} ${status}`;
    let child = children.get(key);
    if (!child) {
      const counter = requests.labels({ route, method: request.method, status });
      const histogram = duration.labels({ route });
      child = { count: () => counter.inc(), observe: (seconds) => histogram.observe(seconds) };
      children.set(key, child);
    }
    child.count();
    child.observe(reply.elapsedTime / 1000);
  });
  // open unless a token is set (metrics-token.ts)
  const guard = options.token === undefined ? {} : { onRequest: requireMetricsToken(options.token) };
  app.get('/metrics', { schema: { hide: true }, ...guard }, async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
  return { registry, decisions };
}
