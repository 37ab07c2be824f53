/**
 * Which policy governs a tenant: its own active policy if it has one, else the server default (`--policy
 * FILE`, stored under the tenant id `*`), else none — and with none every call is refused (fail closed).
 * Policies live in the store, so every replica uses the same version; a loaded policy is cached by digest
 * and the tenant → digest lookup for `cacheMs`, so a policy change reaches all replicas within that time.
 */
import { loadPolicy, type LoadedPolicy } from '../policy/index.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { Store } from '../store/store.js';

export const DEFAULT_POLICY_TENANT = '*';

export class PolicySource {
  readonly #store: Store;
  readonly #cacheMs: number;
  readonly #byDigest = new Map<string, LoadedPolicy>();
  readonly #byTenant = new Map<string, { policy: LoadedPolicy | undefined; untilMs: number }>();

  constructor(store: Store, options: { cacheMs?: number } = {}) {
    this.#store = store;
    this.#cacheMs = options.cacheMs ?? 1000;
  }

  async forTenant(tenantId: string, nowMs: number = Date.now()): Promise<LoadedPolicy | undefined> {
    const cached = this.#byTenant.get(tenantId);
    if (cached && cached.untilMs > nowMs) return cached.policy;
    const record =
      (await this.#store.activePolicy(tenantId)) ?? (await this.#store.activePolicy(DEFAULT_POLICY_TENANT));
    let policy: LoadedPolicy | undefined;
    if (record) {
      policy = this.#byDigest.get(record.digest);
      if (!policy) {
        policy = loadPolicy(record.yamlText, record.source);
        this.#byDigest.set(record.digest, policy);
      }
    }
    this.#byTenant.set(tenantId, { policy, untilMs: nowMs + this.#cacheMs });
    return policy;
  }

  /**
   * Loads (throwing every problem), stores and audits a policy for a tenant (or `*`, the default). The
   * audit entry is written only when the active digest changes.
   */
  async install(
    tenantId: string,
    yamlText: string,
    source: string,
    audit: AuditLog,
    nowMs: number = Date.now(),
  ): Promise<{ policy: LoadedPolicy; changed: boolean }> {
    const policy = loadPolicy(yamlText, source);
    const changed = await this.#store.putPolicy({
      tenantId,
      digest: policy.digest,
      policyId: policy.id,
      source,
      yamlText,
      activatedAtMs: nowMs,
    });
    if (changed) {
      await audit.append(
        {
          type: 'policy',
          tenantId: tenantId === DEFAULT_POLICY_TENANT ? undefined : tenantId,
          actor: 'system',
          data: {
            action: 'activate',
            scope: tenantId === DEFAULT_POLICY_TENANT ? 'default' : 'tenant',
            id: policy.id,
            digest: policy.digest,
            source,
          },
        },
        nowMs,
      );
    }
    this.#byDigest.set(policy.digest, policy);
    this.#byTenant.clear();
    return { policy, changed };
  }
}
