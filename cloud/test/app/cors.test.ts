/**
 * Opt-in CORS (cloud/src/app/cors.ts; Fetch standard §3.2): without `corsOrigins` nothing changes (no CORS
 * headers, a preflight is 405); with them an allowed origin's preflight is 204 with the path's methods, and
 * every answer to it — errors and 401s included — carries Access-Control-Allow-Origin and the exposed
 * headers; another origin gets no CORS headers; the console is untouched.
 */
import { get, request } from 'node:http';
import { join } from 'node:path';
import t from 'tap';
import { corsOriginOf } from '../../src/app/cors.js';
import { serveShutdown } from '../../src/cli/serve-command.js';
import { CONSOLE_CSP } from '../../src/console/register-console.js';
import { cli, serveInProcess } from '../helpers/cli.js';
import { bearer, testCloud } from '../helpers/cloud-app.js';
import { ledgerWrite } from '../kernel/kernel-helpers.js';

const ORIGIN = 'https://agents.example.com';
const preflight = (origin: string, url = '/api/v1/kernel/authorize') => ({
  method: 'OPTIONS' as const,
  url,
  headers: {
    origin,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'authorization, content-type',
  },
});
const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-allow-credentials',
  'access-control-expose-headers',
  'access-control-max-age',
];

t.test('corsOriginOf takes exact http(s) origins only', async (t) => {
  t.equal(corsOriginOf(ORIGIN), ORIGIN);
  t.equal(corsOriginOf('http://127.0.0.1:5173'), 'http://127.0.0.1:5173');
  for (const [bad, why] of [
    ['*', /wildcard/],
    ['https://*.example.com', /wildcard/],
    ['null', /http\(s\) origin/],
    ['agents.example.com', /http\(s\) origin/],
    ['file:///tmp/page.html', /http\(s\) origin/],
    ['https://agents.example.com/', /exactly as a browser sends it, https:\/\/agents\.example\.com$/],
    ['https://Agents.example.com', /exactly as a browser sends it/],
    ['https://agents.example.com:443', /exactly as a browser sends it/],
    ['https://agents.example.com/app?x=1', /exactly as a browser sends it/],
    ['https://user@agents.example.com', /exactly as a browser sends it/],
  ] as const) {
    t.throws(() => corsOriginOf(bad), why, `${bad}: refused`);
  }
});

t.test('without corsOrigins nothing changes: no CORS headers, a preflight is 405', async (t) => {
  const cloud = await testCloud(t);
  const res = await cloud.app.inject(preflight(ORIGIN));
  t.equal(res.statusCode, 405);
  t.equal(res.headers.allow, 'POST');
  const call = await cloud.app.inject({
    method: 'POST',
    url: '/api/v1/kernel/authorize',
    headers: { ...bearer(cloud.a.keys.agent), origin: ORIGIN },
    payload: ledgerWrite(10),
  });
  t.equal(call.statusCode, 200);
  for (const res2 of [res, call]) {
    for (const name of [...CORS_HEADERS, 'vary']) t.notOk(name in res2.headers, `no ${name}`);
  }
});

t.test('an allowed origin: preflight 204, every answer readable by the page', async (t) => {
  const cloud = await testCloud(t, { corsOrigins: [ORIGIN, 'http://127.0.0.1:5173'] });

  const pre = await cloud.app.inject(preflight(ORIGIN));
  t.equal(pre.statusCode, 204);
  t.equal(pre.body, '');
  t.equal(pre.headers['access-control-allow-origin'], ORIGIN, 'the exact origin, never *');
  t.equal(pre.headers['access-control-allow-methods'], 'POST', "the path's own methods");
  t.equal(pre.headers['access-control-allow-headers'], 'authorization, content-type');
  t.equal(pre.headers['access-control-max-age'], '600');
  t.equal(pre.headers.vary, 'Origin');
  t.notOk('access-control-allow-credentials' in pre.headers, 'never credentials');
  const read = await cloud.app.inject(preflight(ORIGIN, '/api/v1/proofs/some-decision'));
  t.equal(read.statusCode, 204);
  t.match(read.headers['access-control-allow-methods'], /^GET\b/);

  const exposed = (res: { headers: Record<string, unknown> }) => {
    t.equal(res.headers['access-control-allow-origin'], ORIGIN);
    t.equal(res.headers.vary, 'Origin');
    t.match(res.headers['access-control-expose-headers'], /\bretry-after\b/);
    t.match(res.headers['access-control-expose-headers'], /\bx-pentagate-decision-id\b/);
    t.notOk('access-control-allow-credentials' in res.headers);
  };
  const call = (headers: Record<string, string>, payload: unknown = ledgerWrite(10)) =>
    cloud.app.inject({
      method: 'POST',
      url: '/api/v1/kernel/authorize',
      headers: { origin: ORIGIN, ...headers },
      payload: payload as object,
    });
  const ok = await call(bearer(cloud.a.keys.agent));
  t.equal(ok.statusCode, 200);
  exposed(ok);
  const noKey = await call({});
  t.equal(noKey.statusCode, 401);
  t.ok(noKey.headers['www-authenticate']);
  exposed(noKey);
  const forbidden = await call(bearer(cloud.a.keys.auditor));
  t.equal(forbidden.statusCode, 403);
  exposed(forbidden);
  const invalid = await call(bearer(cloud.a.keys.agent), { type: 'nope' });
  t.equal(invalid.statusCode, 400);
  exposed(invalid);
  const unknown = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/nothing',
    headers: { origin: ORIGIN },
  });
  t.equal(unknown.statusCode, 404);
  exposed(unknown);
  const badUrl = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/proofs/%E0%A4%A',
    headers: { origin: ORIGIN },
  });
  t.equal(badUrl.statusCode, 400);
  exposed(badUrl);
  // OPTIONS without Access-Control-Request-Method is no preflight: 405 as before, readable
  const plainOptions = await cloud.app.inject({
    method: 'OPTIONS',
    url: '/api/v1/kernel/authorize',
    headers: { origin: ORIGIN },
  });
  t.equal(plainOptions.statusCode, 405);
  exposed(plainOptions);
});

t.test('the live stream, which writes its own headers, carries them too', async (t) => {
  const cloud = await testCloud(t, { corsOrigins: [ORIGIN] });
  const url = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const req = get(
      `${url}/api/v1/fleet/live`,
      { headers: { ...bearer(cloud.a.keys.auditor), origin: ORIGIN } },
      (res) => {
        resolve({ status: res.statusCode, ...res.headers });
        req.destroy();
      },
    );
    req.on('error', reject);
  });
  t.equal(headers.status, 200);
  t.match(headers['content-type'], /^text\/event-stream/);
  t.equal(headers['access-control-allow-origin'], ORIGIN);
  t.equal(headers.vary, 'Origin');
});

t.test('a rate-limited answer is readable with its retry-after', async (t) => {
  const cloud = await testCloud(t, {
    corsOrigins: [ORIGIN],
    rateLimit: { max: 1, maxWithoutKey: 1, timeWindowMs: 60_000 },
  });
  const get = () =>
    cloud.app.inject({
      method: 'GET',
      url: '/api/v1/keys',
      headers: { ...bearer(cloud.a.keys.agent), origin: ORIGIN },
    });
  t.equal((await get()).statusCode, 200);
  const limited = await get();
  t.equal(limited.statusCode, 429);
  t.ok(limited.headers['retry-after']);
  t.equal(limited.headers['access-control-allow-origin'], ORIGIN);
  t.match(limited.headers['access-control-expose-headers'], /\bretry-after\b/);
});

t.test('another origin gets no CORS headers and is otherwise answered as before', async (t) => {
  const cloud = await testCloud(t, { corsOrigins: [ORIGIN] });
  for (const other of [
    'https://evil.example',
    'null',
    `${ORIGIN}, https://evil.example`,
    'https://agents.example.com.evil.example',
  ]) {
    const pre = await cloud.app.inject(preflight(other));
    t.equal(pre.statusCode, 405, `${other}: preflight refused as without CORS`);
    const call = await cloud.app.inject({
      method: 'POST',
      url: '/api/v1/kernel/authorize',
      headers: { ...bearer(cloud.a.keys.agent), origin: other },
      payload: ledgerWrite(10),
    });
    t.equal(call.statusCode, 200, `${other}: handled (the browser, not the server, withholds the answer)`);
    for (const res of [pre, call]) {
      for (const name of CORS_HEADERS) t.notOk(name in res.headers, `${other}: no ${name}`);
      t.equal(res.headers.vary, 'Origin', 'the answer still depends on Origin');
    }
  }
});

t.test('the console and its CSP are untouched', async (t) => {
  const cloud = await testCloud(t, { corsOrigins: [ORIGIN] });
  const res = await cloud.app.inject({ method: 'GET', url: '/console', headers: { origin: ORIGIN } });
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-security-policy'], CONSOLE_CSP);
  for (const name of [...CORS_HEADERS, 'vary']) t.notOk(name in res.headers, `no ${name}`);
  const pre = await cloud.app.inject(preflight(ORIGIN, '/console'));
  t.equal(pre.statusCode, 405);
  t.notOk('access-control-allow-origin' in pre.headers);
});

t.test('buildApp refuses a wildcard; cloud serve refuses it with exit code 2', async (t) => {
  await t.rejects(testCloud(t, { corsOrigins: ['*'] }), /wildcard/);
  const run = await cli('cloud', 'serve', '--port', '0', '--cors-origin', '*');
  t.equal(run.code, 2);
  t.match(run.err, /--cors-origin: .*wildcard/);
});

t.test('cloud serve --cors-origin (repeatable) answers those origins', async (t) => {
  const dir = t.testdir();
  const second = 'http://127.0.0.1:5173';
  const { base, exit } = await serveInProcess(
    '--state-dir',
    join(dir, 'state'),
    '--log-level',
    'silent',
    '--cors-origin',
    ORIGIN,
    '--cors-origin',
    second,
  );
  const ask = (origin: string) =>
    new Promise<{ status: number; allowOrigin: unknown }>((resolve, reject) => {
      const req = request(`${base}/api/v1/kernel/authorize`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, allowOrigin: res.headers['access-control-allow-origin'] });
      });
      req.on('error', reject);
      req.end();
    });
  t.same(await ask(ORIGIN), { status: 204, allowOrigin: ORIGIN });
  t.same(await ask(second), { status: 204, allowOrigin: second });
  t.same(await ask('https://evil.example'), { status: 405, allowOrigin: undefined });
  serveShutdown.emit('shutdown', 'SIGTERM');
  t.equal(await exit, 0);
});
