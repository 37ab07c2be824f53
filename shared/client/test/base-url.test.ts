/**
 * `baseUrl` is "string (URL)", the tenant's address (specification §2.1, "Base address {base_url}. It is
 * specific to a tenant"): whatever fetch itself reads as an http(s) URL is one — the scheme in any case
 * (RFC 3986 §3.1), a path prefix in front of the routes — and what fetch cannot use is an options error at
 * construction, not a NetworkError on every call (which says the server may have acted: it never heard of it).
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { GovClient, type GovError, type ProposedAction, ValidationFailedError } from '../src/index.js';
import { liveCloud } from './live-cloud.js';

const FAKE_KEY = `pgk_${'A'.repeat(43)}`;

const ACTION: ProposedAction = {
  type: 'ledger:write',
  payload: { amount: 1, recipient: 'Contoso Ltd' },
  context: { agentId: 'billing-agent', confidenceScore: 0.9 },
};

/** A gateway that serves the cloud under `prefix` (stripped before forwarding), as a tenant address does. */
async function prefixGateway(t: Test, cloudUrl: string, prefix: string): Promise<string> {
  const cloud = new URL(cloudUrl);
  const server = createServer((req, res) => {
    if (!req.url?.startsWith(`${prefix}/`)) return void res.writeHead(404).end();
    const upstream = httpRequest(
      {
        host: cloud.hostname,
        port: cloud.port,
        method: req.method,
        path: req.url.slice(prefix.length),
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${prefix}`;
}

t.test('a tenant address under a path prefix serves every operation', async (t) => {
  const cloud = await liveCloud(t);
  const tenantUrl = await prefixGateway(t, cloud.baseUrl, '/tenants/acme');
  for (const baseUrl of [tenantUrl, `${tenantUrl}/`]) {
    const client = new GovClient({ baseUrl, apiKey: cloud.a.keys.agent });
    const decision = await client.authorize({
      ...ACTION,
      payload: { amount: 1, recipient: `Contoso via ${baseUrl}` },
    });
    t.equal(decision.status, 'ALLOW', `${baseUrl}: authorize`);
    t.type((await client.execute(decision.proposalId)).executionId, 'string', `${baseUrl}: execute`);
    t.equal((await client.replay(decision.proposalId)).identical, true, `${baseUrl}: replay`);
    t.ok(
      (await client.getAuditEvents({ proposalId: decision.proposalId })).events.length > 0,
      `${baseUrl}: events`,
    );
  }
});

t.test('the scheme is case-insensitive', async (t) => {
  const cloud = await liveCloud(t);
  const upper = cloud.baseUrl.replace(/^http:/, 'HTTP:');
  const client = new GovClient({ baseUrl: upper, apiKey: cloud.a.keys.agent });
  t.equal((await client.authorize(ACTION)).status, 'ALLOW', upper);
});

t.test('a baseUrl fetch cannot use is an options error at construction', async (t) => {
  const cases: [string, RegExp][] = [
    ['http://', /^baseUrl: expected an http\(s\) URL string .*, got "http:\/\/", which is not a URL/],
    [
      'http://127.0.0.1:99999',
      /^baseUrl: expected .*, got "http:\/\/127\.0\.0\.1:99999", which is not a URL/,
    ],
    // fetch refuses a URL with credentials; the message must not repeat them
    ['http://user:s3cret@127.0.0.1:8080', /^baseUrl: expected no user name or password in it/],
    ['http://user:s3cret@127.0.0.1:99999', /^baseUrl: expected .*, got "http:\/\/…@127\.0\.0\.1:99999"/],
    ['ftp://127.0.0.1', /^baseUrl: expected an http\(s\) URL string/],
  ];
  for (const [baseUrl, message] of cases) {
    let thrown: unknown;
    try {
      new GovClient({ baseUrl, apiKey: FAKE_KEY });
    } catch (err) {
      thrown = err;
    }
    t.type(thrown, ValidationFailedError, baseUrl);
    t.match((thrown as GovError | undefined)?.message, message, baseUrl);
    t.notMatch(
      (thrown as GovError | undefined)?.message ?? '',
      /s3cret/,
      `${baseUrl}: no password in the message`,
    );
    t.equal((thrown as GovError | undefined)?.code, 'INVALID_OPTIONS', baseUrl);
  }
});
