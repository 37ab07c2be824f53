/**
 * One API key holds at most MAX_STREAMS_PER_KEY live streams open. Each stream holds a socket (a file
 * descriptor) for as long as it lasts and the request rate limit counts only their opening, so without a
 * bound one tenant's auditor key could hold every descriptor of the process and leave other tenants'
 * requests unanswered (seen with `cloud serve` under `ulimit -n 300`: 275 streams, then another tenant's
 * request hung). Over real sockets.
 */
import { type ClientRequest, get, request } from 'node:http';
import t from 'tap';
import { MAX_STREAMS_PER_KEY } from '../../src/fleet/live-stream.js';
import { bearer, testCloud } from '../helpers/cloud-app.js';

function openStream(url: string, key: string): Promise<{ status: number; body: string; req: ClientRequest }> {
  return new Promise((resolve, reject) => {
    const req = get(`${url}/api/v1/fleet/live`, { headers: bearer(key) }, (res) => {
      if (res.statusCode === 200) return resolve({ status: 200, body: '', req });
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, req }));
    });
    req.on('error', reject);
  });
}

t.test('one key holds a bounded number of live streams; other keys and tenants are unaffected', async (t) => {
  const cloud = await testCloud(t);
  const url = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const streams: ClientRequest[] = [];
  t.teardown(() => {
    for (const s of streams) s.destroy();
  });
  for (let i = 0; i < MAX_STREAMS_PER_KEY; i++) {
    const s = await openStream(url, cloud.a.keys.auditor);
    streams.push(s.req);
    t.equal(s.status, 200, `stream ${i + 1} opens`);
  }
  const refused = await openStream(url, cloud.a.keys.auditor);
  t.equal(refused.status, 429, 'one more is refused');
  t.equal(JSON.parse(refused.body).error.code, 'RATE_LIMITED');
  t.match(JSON.parse(refused.body).error.message, /live streams/);

  const other = await openStream(url, cloud.b.keys.auditor);
  streams.push(other.req);
  t.equal(other.status, 200, "another tenant's key opens its stream");
  const sameTenant = await openStream(url, cloud.a.keys.operator);
  streams.push(sameTenant.req);
  t.equal(sameTenant.status, 200, 'another key of the same tenant too');

  streams[0]!.destroy();
  await new Promise((r) => setTimeout(r, 100));
  const after = await openStream(url, cloud.a.keys.auditor);
  streams.push(after.req);
  t.equal(after.status, 200, 'a closed stream frees its place');
});

/** A HEAD request's status, or 0 when no answer came within `timeoutMs`. */
function head(url: string, key: string, timeoutMs: number): Promise<{ status: number; allow?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/v1/fleet/live`, { method: 'HEAD', headers: bearer(key) }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, allow: res.headers.allow });
    });
    req.setTimeout(timeoutMs, () => {
      req.destroy();
      resolve({ status: 0 });
    });
    req.on('error', reject);
    req.end();
  });
}

t.test('HEAD on the live view is 405: a stream has no headers-only answer', async (t) => {
  const cloud = await testCloud(t);
  const url = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const answer = await head(url, cloud.a.keys.auditor, 3000);
  t.equal(answer.status, 405, 'answered at once (before: no answer ever, the stream held open unseen)');
  t.equal(answer.allow, 'GET');
});
