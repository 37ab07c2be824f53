/** `pentagate cloud serve`: the control plane on a port until SIGINT or SIGTERM, then a graceful stop. */
import { EventEmitter } from 'node:events';
import { type Command, onStopRequest, UsageError } from '@pentagate/protocol';
import { corsOriginOf } from '../app/cors.js';
import { publicUrlOf } from '../app/public-url.js';
import { DEFAULT_RATE_LIMIT } from '../app/rate-limit.js';
import { metricsTokenOf } from './metrics-token-file.js';
import { startServer } from './server.js';
import {
  JSON_OPTION,
  KEY_OPTIONS,
  STATE_OPTIONS,
  dbOf,
  logOriginOf,
  stateDirOf,
  stringOption,
} from './state.js';

function portOf(text: string | undefined): number {
  if (text === undefined) return 8080;
  if (!/^[0-9]{1,5}$/.test(text) || Number(text) > 65535) {
    throw new UsageError(`--port: expected 0..65535, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

function positiveIntOf(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9][0-9]{0,9}$/.test(text))
    throw new UsageError(`--${name}: expected a positive integer, got ${JSON.stringify(text)}`);
  return Number(text);
}

/**
 * Where a running `serve` learns it should stop: SIGINT and SIGTERM are wired to it, and an embedding
 * program (or a test, which must not signal its own test runner) may emit `'shutdown'` with a reason.
 */
export const serveShutdown = new EventEmitter();

/** Resolves on the first SIGINT, SIGTERM, closed output or `serveShutdown` 'shutdown' event. */
function shutdownSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: string) => {
      offStop();
      serveShutdown.off('shutdown', on);
      resolve(signal);
    };
    const offStop = onStopRequest(on);
    serveShutdown.on('shutdown', on);
  });
}

export const serveCommand: Command = {
  path: ['cloud', 'serve'],
  summary: 'Run the cloud control plane (agentgate, proofs, audit log) on a port',
  usage:
    '[--port N] [--host ADDR] [--public-url URL] [--cors-origin ORIGIN]… [--db sqlite:PATH|postgres://…] [--policy FILE] [--signing-key FILE] [--log-origin NAME] [--metrics-token-file FILE]',
  description:
    'Serves the HTTP API (see GET /openapi.json) until SIGINT/SIGTERM; then it stops accepting requests,\n' +
    'lets in-flight ones finish (their audit entries are durable before they answer) and closes the store.\n' +
    'The default store is SQLite in the state dir; give a postgres:// URL to share one database between\n' +
    'replicas (all replicas must use the same --signing-key and --log-origin). Without --policy (or a tenant\n' +
    'policy in the store) every tool call is refused. GET /metrics (Prometheus) needs no API key: without\n' +
    '--metrics-token-file it is open to whoever reaches the port; with it, only to Authorization: Bearer <token>.\n' +
    'Exit codes: 0 stopped cleanly, 2 bad usage or input.',
  options: {
    port: { type: 'string', valueName: 'N', description: 'TCP port (default 8080; 0 picks a free one)' },
    host: { type: 'string', valueName: 'ADDR', description: 'address to bind (default 127.0.0.1)' },
    'public-url': {
      type: 'string',
      valueName: 'URL',
      description:
        'the address agents reach the API at, e.g. behind a proxy under a path prefix; registration then\n' +
        'answers with propose_endpoint under it (default: under the scheme and Host the agent called)',
    },
    'cors-origin': {
      type: 'string',
      valueName: 'ORIGIN',
      multiple: true,
      description:
        'let pages of this origin call the API with fetch (CORS), e.g. https://agents.example.com\n' +
        '(repeatable; exact origins only, no wildcard; default: none, no CORS headers)',
    },
    policy: {
      type: 'string',
      valueName: 'FILE',
      description: 'default policy YAML for tenants without their own',
    },
    trust: {
      type: 'string',
      valueName: 'FILE',
      description: 'trust document with the custody keys to accept',
    },
    'rate-limit': {
      type: 'string',
      valueName: 'N',
      description: 'requests per minute per API key (default 600)',
    },
    'rate-limit-bytes': {
      type: 'string',
      valueName: 'BYTES',
      description: 'request-body bytes per minute per API key (default 33554432)',
    },
    'body-limit': {
      type: 'string',
      valueName: 'BYTES',
      description: 'largest request body (default 1048576)',
    },
    'request-timeout': {
      type: 'string',
      valueName: 'MS',
      description: 'longest time to receive a whole request, headers and body, before 408 (default 30000)',
    },
    'open-proposals': {
      type: 'string',
      valueName: 'N',
      description:
        'most proposals waiting for an operator one API key may have open; beyond it 403 OPEN_PROPOSALS_LIMIT (default 100)',
    },
    'metrics-token-file': {
      type: 'string',
      valueName: 'FILE',
      description:
        'a file holding the bearer token GET /metrics then requires (one line, at least 16 characters); without it /metrics is open: serve it only on an internal network',
    },
    'log-level': {
      type: 'string',
      valueName: 'LEVEL',
      description: 'pino level: info (default), warn, error, silent',
    },
    ...STATE_OPTIONS,
    ...KEY_OPTIONS,
    ...JSON_OPTION,
  },
  async run(args, io) {
    const rateLimit = positiveIntOf(stringOption(args, 'rate-limit'), 'rate-limit');
    const rateLimitBytes = positiveIntOf(stringOption(args, 'rate-limit-bytes'), 'rate-limit-bytes');
    const bodyLimit = positiveIntOf(stringOption(args, 'body-limit'), 'body-limit');
    const requestTimeout = positiveIntOf(stringOption(args, 'request-timeout'), 'request-timeout');
    const openProposals = positiveIntOf(stringOption(args, 'open-proposals'), 'open-proposals');
    const logLevel = stringOption(args, 'log-level') ?? 'info';
    const metricsTokenFile = stringOption(args, 'metrics-token-file');
    const metricsToken = metricsTokenFile === undefined ? undefined : metricsTokenOf(metricsTokenFile);
    const policyFile = stringOption(args, 'policy');
    const signingKeyFile = stringOption(args, 'signing-key');
    const custodyTrustFile = stringOption(args, 'trust');
    const publicUrl = stringOption(args, 'public-url');
    if (publicUrl !== undefined) {
      try {
        publicUrlOf(publicUrl);
      } catch (err) {
        throw new UsageError(`--public-url: ${(err as Error).message}`);
      }
    }
    const corsOrigins = (args.options['cors-origin'] as string[] | undefined) ?? [];
    for (const origin of corsOrigins) {
      try {
        corsOriginOf(origin);
      } catch (err) {
        throw new UsageError(`--cors-origin: ${(err as Error).message}`);
      }
    }
    const server = await startServer({
      port: portOf(stringOption(args, 'port')),
      host: stringOption(args, 'host') ?? '127.0.0.1',
      db: dbOf(args),
      stateDir: stateDirOf(args),
      logOrigin: logOriginOf(args),
      ...(policyFile ? { policyFile } : {}),
      ...(signingKeyFile ? { signingKeyFile } : {}),
      ...(custodyTrustFile ? { custodyTrustFile } : {}),
      app: {
        logger: logLevel === 'silent' ? false : logLevel,
        ...(rateLimit || rateLimitBytes
          ? {
              rateLimit: {
                ...DEFAULT_RATE_LIMIT,
                ...(rateLimit ? { max: rateLimit } : {}),
                ...(rateLimitBytes ? { maxBodyBytes: rateLimitBytes } : {}),
              },
            }
          : {}),
        ...(bodyLimit ? { bodyLimitBytes: bodyLimit } : {}),
        ...(requestTimeout ? { requestTimeoutMs: requestTimeout } : {}),
        ...(openProposals ? { kernel: { openProposalsPerKey: openProposals } } : {}),
        ...(publicUrl !== undefined ? { publicUrl } : {}),
        ...(corsOrigins.length > 0 ? { corsOrigins } : {}),
        ...(metricsToken !== undefined ? { metricsToken } : {}),
      },
    });
    const signal = shutdownSignal();
    if (args.options.json) {
      io.out(
        JSON.stringify({ url: server.url, proofKid: server.proofKid, checkpointKid: server.checkpointKid }),
      );
    }
    io.err(
      `pentagate cloud: listening on ${server.url} (proof key ${server.proofKid}, checkpoint key ${server.checkpointKid}` +
        `${server.generatedKey ? `, generated ${server.signingKeyPath}` : ''})`,
    );
    const received = await signal;
    io.err(`pentagate cloud: ${received}: draining in-flight requests, then closing the store`);
    await server.stop();
    io.err('pentagate cloud: stopped');
    return 0;
  },
};
