/**
 * Starts the fleet uplink beside a running edge: the audit shipper and, through the same link, the consent
 * relay. Its metrics join the edge's /metrics.
 */
import type { Logger } from 'pino';
import type { EdgeMetrics } from '../observability/edge-metrics.js';
import { AuditShipper, type ShippableOutbox } from './audit-shipper.js';
import { CloudLink } from './cloud-link.js';
import { ConsentRelay, type ConsentRelayGate } from './consent-relay.js';
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
  /** Compact the outbox once this many acknowledged records pile up (default 10,000; 0 never). */
  compactAfterRecords?: number;
  /** Longest the cloud may hold a request for consent tokens, ms (default 20,000). */
  consentHoldMs?: number;
}

export interface RunningUplink {
  link: CloudLink;
  shipper: AuditShipper;
  /** Relays moves waiting for consent to the cloud and operators' tokens back, when the edge gates. */
  consent: ConsentRelay | undefined;
  stop(): Promise<void>;
}

export function startUplink(
  options: UplinkOptions,
  edge: {
    robotId: string;
    outbox: ShippableOutbox;
    metrics: EdgeMetrics;
    logger: Logger;
    /** The gate and the node's consent path, for the consent relay. */
    consent?: { gate: ConsentRelayGate; deliver: (token: unknown) => void };
  },
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
    ...(options.compactAfterRecords !== undefined
      ? { compactAfterRecords: options.compactAfterRecords }
      : {}),
  });
  shipper.start();
  const consent = edge.consent
    ? new ConsentRelay({
        link,
        gate: edge.consent.gate,
        deliver: edge.consent.deliver,
        logger: edge.logger.child({ component: 'consent-relay' }),
        ...(options.consentHoldMs !== undefined ? { holdMs: options.consentHoldMs } : {}),
      })
    : undefined;
  consent?.start();
  return {
    link,
    shipper,
    consent,
    stop: async () => {
      await Promise.all([shipper.stop(), consent?.stop()]);
    },
  };
}
