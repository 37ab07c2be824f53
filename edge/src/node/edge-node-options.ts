/** What an EdgeNode is made of and how often it checks: its gate, transport, outbox and timings. */
import type { Logger } from 'pino';
import type { EdgeMetrics } from '../observability/edge-metrics.js';
import type { AuditOutbox } from '../outbox/audit-outbox.js';
import type { RobotTransport } from '../transport/robot-transport.js';
import type { EdgeGatePort } from './edge-gate-port.js';

export interface EdgeNodeOptions {
  robotId: string;
  gate: EdgeGatePort;
  transport: RobotTransport;
  outbox: AuditOutbox;
  metrics: EdgeMetrics;
  logger: Logger;
  /** How often waiting consents are checked for expiry, ms (default 250). */
  consentCheckPeriodMs?: number;
  /**
   * How often the motion in progress is re-checked without new telemetry, ms (default 20). Telemetry
   * updates re-check it on arrival; this watchdog catches a proximity source that goes silent, whose
   * frame turns stale after its maxAgeMs and must stop the motion even though nothing arrives.
   */
  monitorPeriodMs?: number;
  /** Window over which refusals of one kind from one source are summarised, ms (default 10,000). */
  refusalWindowMs?: number;
  /**
   * Intents a second the node judges (token bucket; default 50, 0 = the default); more are refused as
   * `INPUT.INTENT_RATE_LIMITED` without reaching the gate (`edge run --max-intents-per-second`).
   */
  maxIntentsPerSecond?: number;
  /** Intents the bucket holds, i.e. the largest burst judged at once (default 2 s of the rate: 100). */
  intentBurst?: number;
  /** Monotonic ms the intent bucket refills on (default performance.now); for tests. */
  intentRateClock?: () => number;
  clock?: () => number;
}
