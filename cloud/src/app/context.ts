/** What every route handler needs, built once by buildApp. */
import type { AuditLog } from '../audit/audit-log.js';
import type { PolicySource } from '../decisions/policy-source.js';
import type { ServerKeys } from '../keys/server-keys.js';
import type { Store } from '../store/store.js';
import type { CloudMetrics } from './metrics.js';

export interface CloudContext {
  store: Store;
  audit: AuditLog;
  keys: ServerKeys;
  policies: PolicySource;
  metrics: CloudMetrics;
}
