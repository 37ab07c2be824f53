/**
 * `buildApp(options)`: the control plane as a Fastify instance, not listening (tests use `inject()` or
 * `listen({ port: 0 })`; `pentagate cloud serve` listens). Start-up records the signing keys and the
 * default policy in the store and the audit log before the first request is served.
 */
import swagger from '@fastify/swagger';
import { TrustStore } from '@pentagate/crypto';
import type { TrustDocument } from '@pentagate/protocol';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { AuditLog } from '../audit/audit-log.js';
import type { KernelSettings } from '../kernel/kernel-settings.js';
import { registerKernel } from '../kernel/register-kernel.js';
import { waitingRobotConsents } from '../fleet/consent-routes.js';
import { registerFleet } from '../fleet/register-fleet.js';
import { DEFAULT_POLICY_TENANT, PolicySource } from '../decisions/policy-source.js';
import { serverKeysFromSeed, signingKeyRecords } from '../keys/server-keys.js';
import { assertSigningKeysActive } from '../keys/retire-signing-key.js';
import { SigningKeyWatch } from '../keys/signing-key-watch.js';
import { registerRoutes } from '../routes/index.js';
import { publicUrlOf } from './public-url.js';
import { registerConsole } from '../console/register-console.js';
import type { Store } from '../store/store.js';
import { registerApiResponseHeaders } from './api-response-headers.js';
import { registerAuth } from './auth.js';
import { clientErrorHandler } from './client-errors.js';
import { requireOneHost } from './host-header.js';
import { closeSilentConnections } from './silent-connections.js';
import { type CorsHeaders, corsOriginOf, registerCors } from './cors.js';
import type { CloudContext } from './context.js';
import { type ErrorResponder, registerErrorHandler } from './error-handler.js';
import { registerDrain } from './inflight.js';
import { registerJsonBodyParser } from './json-body.js';
import { BodyByteBudget, DEFAULT_MAX_BODY_BYTES } from './body-byte-budget.js';
import { registerMetrics } from './metrics.js';
import { DEFAULT_RATE_LIMIT, type RateLimitOptions, registerRateLimit } from './rate-limit.js';
import { DEFAULT_REFUSAL_TALLY, RefusalTally } from './refusal-tally.js';
import { RouteMethods } from './route-methods.js';
import { registerSchemaValidator } from './schema-validator.js';
import { withoutUrlSecrets } from './url-secrets.js';
import { bundledModel } from '../pentagon/tiers/injection/classifier/index.js';

export type { RateLimitOptions } from './rate-limit.js';

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
  /**
   * Longest time a client may take to send a whole request, headers and body (default 30 s); a slower one
   * gets 408 and its connection is closed, so a key holder cannot pin sockets with unfinished bodies.
   */
  requestTimeoutMs?: number;
  /**
   * Rate limit: 600 requests per minute per valid API key, 120 per address without one (default);
   * `false` turns it off (benchmarks).
   */
  rateLimit?: RateLimitOptions | false;
  /** Window and address bound of the refusal tally for floods (default 60 s, 10,000 addresses). */
  refusalTally?: { windowMs: number; maxAddresses: number };
  /** How long a tenant's policy lookup is cached (default 1000 ms). */
  policyCacheMs?: number;
  /**
   * pino logger: false (default), true, or a level. Authorization headers are always redacted, and so is an
   * API key or other token a client put in the URL (app/url-secrets.ts).
   */
  logger?: boolean | string;
  /** Where log lines go (default stdout). */
  logStream?: { write(line: string): void };
  /** Also export Node process metrics on /metrics (default false; serve turns it on). */
  defaultMetrics?: boolean;
  /** The bearer token `/metrics` requires (metrics-token.ts); absent: `/metrics` is open, as before. */
  metricsToken?: string;
  /** Longest wait for in-flight requests on close (default 10 s). */
  drainTimeoutMs?: number;
  /** Clock, for tests. */
  nowMs?: () => number;
  /**
   * The address agents reach this server at, under which registration hands out `propose_endpoint`
   * (public-url.ts); none → under the scheme and `Host` of the registering request.
   */
  publicUrl?: string;
  /**
   * Origins whose pages may call the API with fetch (cors.ts): each exactly as a browser sends it, e.g.
   * `https://agents.example.com`; none (default) → no CORS headers, and a preflight gets 405 as before.
   */
  corsOrigins?: readonly string[];
  /** How often an open live stream (`GET /api/v1/fleet/live`) checks that its API key is still valid (default 5 s). */
  liveKeyCheckMs?: number;
  /**
   * How often the server reads its signing keys' status again (default 1 s): once another process retires
   * one (`pentagate cloud keys retire`), it signs nothing more with it (signing-key-watch.ts).
   */
  signingKeyCheckMs?: number;
  /** Kernel settings (cloud/src/kernel/kernel-settings.ts); the kernel also uses `nowMs`. */
  kernel?: Partial<KernelSettings>;
}

export type CloudApp = FastifyInstance & { cloud: CloudContext };

/** A request as the log shows it: Fastify's default fields, with any key or token in the URL masked. */
function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: withoutUrlSecrets(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export const DEFAULT_LOG_ORIGIN = 'pentagate.local/audit';
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * Node checks request and header time-outs on a timer (30 s by default), so a 30 s limit could take a
 * minute to act; a check every second (or a quarter of a shorter limit) keeps the 408 near its limit.
 */
function timeoutCheckIntervalMs(requestTimeoutMs: number): number {
  return Math.max(50, Math.min(1000, Math.floor(requestTimeoutMs / 4)));
}

export async function buildApp(options: BuildAppOptions): Promise<CloudApp> {
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  if (!Number.isInteger(requestTimeout) || requestTimeout < 1) {
    throw new RangeError(`requestTimeoutMs must be a positive integer, got ${requestTimeout}`);
  }
  const publicUrl = options.publicUrl === undefined ? undefined : publicUrlOf(options.publicUrl);
  const corsOrigins = (options.corsOrigins ?? []).map(corsOriginOf);
  const level = typeof options.logger === 'string' ? options.logger : 'info';
  const store = options.store;
  // The injection screen's weights, read now: a missing or corrupt file stops the start with its reason
  // instead of refusing every propose after it (model.ts).
  bundledModel();
  const ownKeys = serverKeysFromSeed(options.signingSeed, options.logOrigin ?? DEFAULT_LOG_ORIGIN);
  const ownKids = [ownKeys.proof.keyid, ownKeys.checkpoint.keyid];
  assertSigningKeysActive(await store.listSigningKeys(), ownKids);
  const keyWatch = new SigningKeyWatch(store, ownKids, options.signingKeyCheckMs);
  // every signature of this server goes through the watch: none with a key retired while it runs
  const keys = keyWatch.guard(ownKeys);
  const audit = new AuditLog(store, keys.origin, keys.note);
  const nowMs = options.nowMs ?? Date.now;
  let reportError: (err: unknown) => void = () => {};
  let respondToError: ErrorResponder = async () => {};
  let corsHeaders: CorsHeaders = () => false;
  const tally = new RefusalTally(audit, {
    ...DEFAULT_REFUSAL_TALLY,
    ...options.refusalTally,
    nowMs,
    onError: (err) => reportError(err),
  });
  const app = Fastify({
    bodyLimit,
    // Fastify's default (0) turns Node's own request limit off: a body that never finishes would hold
    // its socket for ever.
    requestTimeout,
    // Given to Node too, so its header time-out (min(60 s, this)) never outlasts the whole request's.
    // requireHostHeader: a missing Host is answered by requireOneHost, in the documented format
    http: {
      requestTimeout,
      connectionsCheckingInterval: timeoutCheckIntervalMs(requestTimeout),
      requireHostHeader: false,
    },
    logger: options.logger
      ? {
          level,
          redact: ['req.headers.authorization', 'headers.authorization'],
          serializers: { req: requestForLog },
          ...(options.logStream ? { stream: options.logStream } : {}),
        }
      : false,
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
    clientErrorHandler: clientErrorHandler(audit, tally, (err) => reportError(err)),
    // router errors (bad percent-encoding, over-long parameters) go through the error handler
    frameworkErrors: (error, request, reply) => {
      corsHeaders(request, reply);
      void respondToError(error, request, reply);
    },
  });
  reportError = (err) => app.log.error({ err }, 'refusal records could not be written');
  closeSilentConnections(app.server, requestTimeout);
  requireOneHost(app);

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

  const routes = new RouteMethods();
  routes.register(app);
  // first, so that every answer of the API carries its CORS headers, a draining 503 included
  corsHeaders = registerCors(app, corsOrigins, routes);
  const drain = registerDrain(app, { drainTimeoutMs: options.drainTimeoutMs ?? 10_000 });
  registerApiResponseHeaders(app);
  const rateLimit = options.rateLimit === false ? undefined : { ...DEFAULT_RATE_LIMIT, ...options.rateLimit };
  registerJsonBodyParser(
    app,
    bodyLimit,
    rateLimit && new BodyByteBudget(rateLimit.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, rateLimit.timeWindowMs),
  );
  registerSchemaValidator(app);
  respondToError = registerErrorHandler(app, { audit, tally, routes });
  tally.start();
  const metrics = registerMetrics(app, {
    defaultMetrics: options.defaultMetrics ?? false,
    token: options.metricsToken,
  });
  const limiter = rateLimit && (await registerRateLimit(app, store, rateLimit));
  registerAuth(app, store, limiter);
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

  const cloud: CloudContext = { store, audit, keys, policies, metrics };
  app.decorate('cloud', cloud);
  registerRoutes(app, cloud, { publicUrl });
  registerConsole(app);
  const fleet = await registerFleet(app, cloud, {
    nowMs,
    ...(options.liveKeyCheckMs !== undefined ? { liveKeyCheckMs: options.liveKeyCheckMs } : {}),
  });
  await registerKernel(app, cloud, {
    custodyTrust,
    settings: options.kernel ?? {},
    nowMs,
    robotConsents: (tenantId) => waitingRobotConsents(fleet, tenantId),
  });

  keyWatch.start({
    onRetired: ({ kid, role }) =>
      app.log.error(
        { kid, role },
        'the signing key was retired while the server ran: requests that need a signature are refused (503 SIGNING_KEY_RETIRED) until it is restarted with the key that replaced it',
      ),
    onError: (err) => app.log.warn({ err }, "the signing keys' status could not be read"),
  });
  app.addHook('onClose', async () => {
    await drain.drained();
    // requests still draining sign: the status is read until they are done, and before the store closes
    await keyWatch.stop();
    await tally.stop();
    await fleet.leaveFanout();
    if (options.ownsStore !== false) await store.close();
  });
  return app as unknown as CloudApp;
}
