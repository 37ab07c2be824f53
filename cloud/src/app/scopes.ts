/**
 * Which API-key scopes open which routes. `admin` opens everything; `agent` is what an agent process
 * holds; `auditor` reads proofs and the log; `operator` approves and vetoes (kernel routes).
 */
import type { ApiKeyScope } from '../store/records.js';

export const ROUTE_SCOPES = {
  agent: ['agent', 'admin'],
  proofs: ['agent', 'auditor', 'operator', 'admin'],
  audit: ['auditor', 'operator', 'admin'],
  keys: ['agent', 'auditor', 'operator', 'admin'],
  operator: ['operator', 'admin'],
  /** Tenant administration over HTTP (retiring an operator's consent key). */
  admin: ['admin'],
  /** Fleet uplink routes: an edge key, and only for the robot it is bound to (cloud/src/fleet). */
  edge: ['edge'],
  /** Fleet registry and live view. */
  fleet: ['operator', 'auditor', 'admin'],
} as const satisfies Record<string, readonly ApiKeyScope[]>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Scopes allowed on this route; absent means the route needs no API key (healthz, metrics, openapi). */
    scopes?: readonly ApiKeyScope[];
  }
}
