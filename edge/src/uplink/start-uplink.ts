/**
 * Starts the fleet uplink beside a running edge: the audit shipper (and, through the same link, anything
 * else the edge exchanges with the cloud). Its metrics join the edge's /metrics.
 */
import type { Logger } from 'pino';
import type { EdgeMetrics } from '../observability/edge-metrics.js';
import { AuditShipper, type ShippableOutbox } from './audit-shipper.js';
import { CloudLink } from './cloud-link.js';
import { UplinkMetrics } from './uplink-metrics.js';

export interface UplinkOptions {
  /** Cloud base URL (https://…; http:// for loopback and tests). */
  url: string;
  /** The robot's edge key (`pentagate cloud robot add`). */
  key: string;
  batchSize?: number;
  pollMs?: number;
  retryMaxMs?: number;
  requestTimeoutMs?: number;
}

export interface RunningUplink {
  link: CloudLink;
  shipper: AuditShipper;
  stop(): Promise<void>;
}

export function startUplink(
  options: UplinkOptions,
  edge: { robotId: string; outbox: ShippableOutbox; metrics: EdgeMetrics; logger: Logger },
): RunningUplink {
  const link = new CloudLink({
    url: options.url,
    key: options.key,
    robotId: edge.robotId,
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
  });
  const shipper = new AuditShipper({
    outbox: edge.outbox,
    link,
    metrics: new UplinkMetrics(edge.metrics.registry),
    logger: edge.logger.child({ component: 'uplink' }),
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
    ...(options.retryMaxMs !== undefined ? { retryMaxMs: options.retryMaxMs } : {}),
  });
  shipper.start();
  return { link, shipper, stop: () => shipper.stop() };
}
