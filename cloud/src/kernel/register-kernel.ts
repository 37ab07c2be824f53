/**
 * Wires the kernel into the app: opens the kernel store on the platform store, registers the kernel and
 * approval routes, and runs the expiry sweep until the app closes.
 */
import { ApprovedRepeats } from './approved-repeats.js';
import type { TrustStore } from '@pentagate/crypto';
import type { FastifyInstance } from 'fastify';
import type { CloudContext } from '../app/context.js';
import { registerAgentgatePropose } from '../routes/agentgate-propose.js';
import { registerAgentgateSchema } from '../routes/agentgate-schema.js';
import { type RobotConsentSource, registerApprovals } from '../routes/approvals/approvals.js';
import { registerAuditEntries } from '../routes/audit-entries.js';
import { registerKernelAuditEvents } from '../routes/kernel/audit-events.js';
import { registerKernelAuthorize } from '../routes/kernel/authorize.js';
import { registerKernelExecute } from '../routes/kernel/execute.js';
import { registerKernelReplay } from '../routes/kernel/replay.js';
import { registerSelfCorrect } from '../routes/selfcorrect.js';
import { openKernelStore } from '../store/open-kernel-store.js';
import { sweepExpired } from './expiry.js';
import type { KernelContext } from './kernel-context.js';
import { DEFAULT_KERNEL_SETTINGS, type KernelSettings } from './kernel-settings.js';

export interface KernelOptions {
  custodyTrust: TrustStore;
  settings?: Partial<KernelSettings>;
  /** Clock, for tests of holds and expiry. */
  nowMs?: () => number;
  /** Robot consent requests waiting in the same queue (the fleet's consent relay), when the fleet runs. */
  robotConsents?: RobotConsentSource;
}

/** The kernel's context on a platform context (opens the kernel store, applying its migrations). */
export async function createKernelContext(
  cloud: CloudContext,
  options: KernelOptions,
): Promise<KernelContext> {
  return {
    cloud,
    store: await openKernelStore(cloud.store),
    custodyTrust: options.custodyTrust,
    settings: { ...DEFAULT_KERNEL_SETTINGS, ...options.settings },
    nowMs: options.nowMs ?? Date.now,
    policyCache: new Map(),
    approvedRepeats: new ApprovedRepeats(),
  };
}

export async function registerKernel(
  app: FastifyInstance,
  cloud: CloudContext,
  options: KernelOptions,
): Promise<KernelContext> {
  const k = await createKernelContext(cloud, options);
  registerAgentgatePropose(app, k);
  registerAgentgateSchema(app, k.settings);
  registerSelfCorrect(app, k);
  registerKernelAuthorize(app, k);
  registerKernelExecute(app, k);
  registerKernelReplay(app, k);
  registerKernelAuditEvents(app, k);
  registerAuditEntries(app, k);
  registerApprovals(app, k, options.robotConsents);
  if (k.settings.expirySweepMs > 0) {
    let running: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      // one sweep at a time; a failed sweep (store down) is retried on the next tick
      running = running
        .then(() => sweepExpired(k))
        .catch((err) => app.log.error({ err }, 'kernel expiry sweep failed'));
    }, k.settings.expirySweepMs);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
  }
  return k;
}
