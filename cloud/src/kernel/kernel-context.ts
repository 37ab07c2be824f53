/** What every kernel operation needs, built once by `registerKernel`. */
import type { TrustStore } from '@pentagate/crypto';
import type { CloudContext } from '../app/context.js';
import type { LoadedPolicy } from '../policy/index.js';
import type { KernelStore } from '../store/kernel-store.js';
import type { ApprovedRepeats } from './approved-repeats.js';
import type { KernelSettings } from './kernel-settings.js';

export interface KernelContext {
  cloud: CloudContext;
  store: KernelStore;
  /** Keys trusted for custody attestations, as the platform's governor uses them. */
  custodyTrust: TrustStore;
  settings: KernelSettings;
  nowMs: () => number;
  /** Policies loaded for replay, by digest (a digest names one immutable document). */
  policyCache: Map<string, LoadedPolicy>;
  /** Answers given again to repeats of approved agent-route calls (approved-repeats.ts). */
  approvedRepeats: ApprovedRepeats;
}
