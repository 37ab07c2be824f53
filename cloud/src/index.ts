/**
 * @pentagate/cloud: the control plane — Fastify app, stores (SQLite, PostgreSQL), the verifiable audit
 * log, governed decisions with signed proofs, tenants and API keys, and the digital pentagon.
 */
export * from './app/build-app.js';
export * from './app/errors.js';
export type { Caller } from './app/auth.js';
export type { CloudContext } from './app/context.js';
export * from './audit/audit-log.js';
export * from './audit/kit-export.js';
export * from './cli/server.js';
export * from './decisions/decision-statement.js';
export type { AuthorizeRequest, AuthorizeResult, DecisionRoute } from './kernel/authorize.js';
export * from './decisions/policy-source.js';
export * from './keys/server-keys.js';
export * from './keys/signing-key-file.js';
export * from './keys/trust-document.js';
export * from './store/records.js';
export * from './store/store.js';
export * from './store/store-error.js';
export * from './store/open-store.js';
export * from './store/sqlite-store.js';
export * from './store/postgres-store.js';
export * from './tenants/api-key.js';
export * from './tenants/tenant-admin.js';
export * from './pentagon/index.js';
export * from './policy/index.js';
export * from './fleet/robot-registry.js';
export * from './fleet/edge-ingest.js';
export * from './store/fleet-store.js';
export * from './store/open-fleet-store.js';
export * from './tenants/tenant-admin.js';
