/**
 * `buildApp(options)`: the control plane as a Fastify instance, not listening (tests use `inject()` or
 * `listen({ port: 0 })`; `pentagate cloud serve` listens). Start-up records the signing keys and the
 * default policy in the store and the audit log before the first request is served.
 */
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import { sha256Hex, TrustStore } from '@pentagate/crypto';
import type { TrustDocument } from '@pentagate/protocol';
import Fastify, { type FastifyInstance } from 'fastify';
import { AuditLog } from '../audit/audit-log.js';
import { Governor } from '../decisions/governor.js';
import type { KernelSettings } from '../kernel/kernel-settings.js';
import { registerKernel } from '../kernel/register-kernel.js';
import { registerFleet } from '../fleet/register-fleet.js';
import { DEFAULT_POLICY_TENANT, PolicySource } from '../decisions/policy-source.js';
import { serverKeysFromSeed, signingKeyRecords } from '../keys/server-keys.js';
import { registerRoutes } from '../routes/index.js';
import type { Store } from '../store/store.js';
import { registerAuth } from './auth.js';
import type { CloudContext } from './context.js';
import { registerErrorHandler } from './error-handler.js';
import { ApiError } from './errors.js';
import { registerDrain } from './inflight.js';
import { registerJsonBodyParser } from './json-body.js';
import { registerMetrics } from './metrics.js';
import { registerSchemaValidator } from './schema-validator.js';

export interface RateLimitOptions {
  /** Requests allowed per API key (or, without a key, per address) per window. */
  max: number;
  timeWindowMs: number;
}

export interface BuildAppOptions {
  store: Store;
  /** Close the store when the app closes (default true). */
  ownsStore?: boolean;
  /** 32-byte Ed25519 seed; the proof key is this seed, the checkpoint key is derived from it. */
  signingSeed: Uint8Array;
  /** The audit log's origin line in checkpoints (C2SP tlog-checkpoint); default `pentagate.local/audit`. */
  logOrigin?: string;
  /** The server-wide default policy (YAML); tenants without their own use it. None → every call refused. */
  policy?: { yamlText: string; source: string };
  /** Keys trusted for custody attestations (role `custody`); none → every attestation is unverified. */
  custodyTrust?: TrustDocument;
  /** Largest request body accepted (default 1 MiB). */
  bodyLimitBytes?: number;
  /** Per-key rate limit (default 600 requests per minute); `false` turns it off (benchmarks). */
  rateLimit?: RateLimitOptions | false;
  /** Validity of a signed approval (default 5 minutes). */
  decisionTtlMs?: number;
  /** How long a tenant's policy lookup is cached (default 1000 ms). */
  policyCacheMs?: number;
  /** pino logger: false (default), true, or a level. Authorization headers are always redacted. */
  logger?: boolean | string;
  /** Also export Node process metrics on /metrics (default false; serve turns it on). */
  defaultMetrics?: boolean;
  /** Longest wait for in-flight requests on close (default 10 s). */
  drainTimeoutMs?: number;
  /** Clock, for tests. */
  nowMs?: () => number;
  /** Kernel settings (cloud/src/kernel/kernel-settings.ts); the kernel also uses `nowMs`. */
  kernel?: Partial<KernelSettings>;
}

export type CloudApp = FastifyInstance & { cloud: CloudContext };

export const DEFAULT_LOG_ORIGIN = 'pentagate.local/audit';
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

function rateLimitKey(authorization: string | undefined, ip: string): string {
  // the raw key never sits in the limiter's table; its hash does
  return authorization ? `key:${sha256Hex(authorization).slice(0, 32)}` : `ip:${ip}`;
}

export async function buildApp(options: BuildAppOptions): Promise<CloudApp> {
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const level = typeof options.logger === 'string' ? options.logger : 'info';
  const app = Fastify({
    bodyLimit,
    logger: options.logger
      ? { level, redact: ['req.headers.authorization', 'headers.authorization'] }
      : false,
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
  });
  const store = options.store;
  const keys = serverKeysFromSeed(options.signingSeed, options.logOrigin ?? DEFAULT_LOG_ORIGIN);
  const audit = new AuditLog(store, keys.origin, keys.note);
  const nowMs = options.nowMs ?? Date.now;

  // Start-up writes: key metadata (a `key` audit entry per key first seen) and the default policy.
  for (const record of signingKeyRecords(keys, nowMs())) {
    if (await store.putSigningKey(record)) {
      await audit.append({
        type: 'key',
        actor: 'system',
        data: { action: 'activate', kid: record.kid, role: record.role, publicKey: record.publicKey },
      });
    }
  }
  const policies = new PolicySource(store, { cacheMs: options.policyCacheMs ?? 1000 });
  if (options.policy) {
    await policies.install(DEFAULT_POLICY_TENANT, options.policy.yamlText, options.policy.source, audit);
  }
  const custodyTrust = TrustStore.fromDocument(
    options.custodyTrust ?? {
      keys: signingKeyRecords(keys, 0).map((k) => ({
        kid: k.kid,
        alg: 'Ed25519',
        role: k.role,
        publicKey: k.publicKey,
      })),
    },
    'custody trust',
  );
  const governor = new Governor({
    store,
    keys,
    policies,
    custodyTrust,
    decisionTtlMs: options.decisionTtlMs ?? 5 * 60_000,
  });

  const drain = registerDrain(app, { drainTimeoutMs: options.drainTimeoutMs ?? 10_000 });
  registerJsonBodyParser(app, bodyLimit);
  registerSchemaValidator(app);
  registerErrorHandler(app, audit);
  const metrics = registerMetrics(app, { defaultMetrics: options.defaultMetrics ?? false });
  if (options.rateLimit !== false) {
    const rl = options.rateLimit ?? { max: 600, timeWindowMs: 60_000 };
    await app.register(rateLimit, {
      global: true,
      max: rl.max,
      timeWindow: rl.timeWindowMs,
      keyGenerator: (request) => rateLimitKey(request.headers.authorization, request.ip),
      errorResponseBuilder: (_request, context) =>
        new ApiError('RATE_LIMITED', `more than ${context.max} requests in ${context.after}; retry later`),
    });
  }
  registerAuth(app, store);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Pentagate cloud',
        description:
          'Governance gate for autonomous agents: registration, tool-call verdicts, proofs, audit log.',
        version: '0.1.0',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearerAuth: [] }],
    },
  });

  const cloud: CloudContext = { store, audit, keys, policies, governor, metrics };
  app.decorate('cloud', cloud);
  registerRoutes(app, cloud);
  await registerKernel(app, cloud, { custodyTrust, settings: options.kernel ?? {}, nowMs });
  await registerFleet(app, cloud, { nowMs });

  app.addHook('onClose', async () => {
    await drain.drained();
    if (options.ownsStore !== false) await store.close();
  });
  return app as unknown as CloudApp;
}
