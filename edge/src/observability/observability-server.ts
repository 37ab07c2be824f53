/**
 * `/metrics` (Prometheus text format) and `/healthz` on a port of their own, separate from MQTT, so a
 * scraper or a container health check needs no broker credentials. Everything else is 404; only GET and
 * HEAD are served.
 */
import { createServer, type Server } from 'node:http';
import { EdgeRuntimeError } from '../node/runtime-error.js';
import type { EdgeMetrics } from './edge-metrics.js';

export interface HealthReport {
  /** false → 503, so an orchestrator restarts or stops routing to the node. */
  healthy: boolean;
  /** Named checks, e.g. `{ mqtt: 'connected', outbox: 'ok' }`. */
  checks: Record<string, string>;
}

export interface ObservabilityServerOptions {
  /** 0 picks a free port (tests). */
  port: number;
  host?: string;
  metrics: EdgeMetrics;
  health: () => HealthReport;
}

export interface ObservabilityServer {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

export async function startObservabilityServer(
  options: ObservabilityServerOptions,
): Promise<ObservabilityServer> {
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/metrics') {
      options.metrics.render().then(
        (text) => res.writeHead(200, { 'content-type': options.metrics.registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
      return;
    }
    if (path === '/healthz') {
      const report = options.health();
      res
        .writeHead(report.healthy ? 200 : 503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: report.healthy ? 'ok' : 'unhealthy', checks: report.checks }));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try /metrics or /healthz\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new EdgeRuntimeError(
          'PORT_IN_USE',
          err.code === 'EADDRINUSE'
            ? `port ${options.port} is in use: pass --metrics-port with another port`
            : `cannot listen on ${host}:${options.port}: ${err.message}`,
        ),
      ),
    );
    server.listen(options.port, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    port,
    url: `http://${host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
