/**
 * Errors raised before a route runs — by Node's HTTP parser, by the router, or for an unknown route or
 * method — are answered on the wire in the documented `{ error: { code, message } }` format, with the
 * status the vocabulary gives them. Sent as raw bytes over a real socket, since a client library would
 * refuse to send most of them.
 */
import { connect } from 'node:net';
import t from 'tap';
import { generateEd25519 } from '@pentagate/crypto';
import { buildApp } from '../../src/app/build-app.js';
import { API_ERRORS } from '../../src/app/errors.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { testCloud } from '../helpers/cloud-app.js';

interface RawResponse {
  status: number;
  headers: string;
  body: unknown;
}

function raw(port: number, request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      let body: unknown;
      try {
        body = JSON.parse(rest.join('\r\n\r\n'));
      } catch {
        body = rest.join('\r\n\r\n');
      }
      resolve({ status, headers: head, body });
    });
  });
}

const get = (path: string, extra = '') =>
  `GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}Connection: close\r\n\r\n`;

t.test('framework errors use the documented error format on the wire', async (t) => {
  const cloud = await testCloud(t);
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(base).port);
  const cases: { name: string; request: string; code: keyof typeof API_ERRORS; message: RegExp }[] = [
    {
      name: 'a request line over the header limit',
      request: get(`/api/v1/${'a'.repeat(20_000)}`),
      code: 'HEADERS_TOO_LARGE',
      message: /larger/,
    },
    {
      name: 'a path parameter over the router limit',
      request: get(`/api/v1/proofs/${'a'.repeat(300)}`),
      code: 'URI_TOO_LONG',
      message: /longer/,
    },
    {
      name: 'a broken percent-encoding',
      request: get('/api/v1/proofs/%E0%A4%A'),
      code: 'INVALID_URL',
      message: /percent-encoded UTF-8/,
    },
    {
      name: 'an encoded surrogate',
      request: get('/api/v1/proofs/%ED%A0%80'),
      code: 'INVALID_URL',
      message: /percent-encoded/,
    },
    {
      name: 'bytes that are not HTTP',
      request: 'HELLO\r\n\r\n',
      code: 'MALFORMED_REQUEST',
      message: /not valid HTTP/,
    },
    {
      name: 'a control character in a header name',
      request: get('/healthz', 'X\u0001: y\r\n'),
      code: 'MALFORMED_REQUEST',
      message: /not valid HTTP/,
    },
    {
      name: 'an HTTP/1.1 request with no Host (RFC 9112 §3.2; Node would answer an empty 400)',
      request: 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n',
      code: 'INVALID_HEADERS',
      message: /must carry a Host header/,
    },
    {
      name: 'two Host headers (RFC 9112 §3.2)',
      request: get('/healthz', 'Host: y\r\n'),
      code: 'INVALID_HEADERS',
      message: /expected one Host header, got 2/,
    },
    {
      name: 'an unknown route',
      request: get('/api/v1/nothing'),
      code: 'NOT_FOUND',
      message: /no route GET \/api\/v1\/nothing/,
    },
    {
      name: 'a known route with another method',
      request: 'DELETE /api/v1/agentgate/propose HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      code: 'METHOD_NOT_ALLOWED',
      message: /answers POST, not DELETE/,
    },
  ];
  for (const c of cases) {
    const res = await raw(port, c.request);
    t.equal(res.status, API_ERRORS[c.code].status, `${c.name}: status ${API_ERRORS[c.code].status}`);
    t.match(res.headers, /content-type: application\/json/i, `${c.name}: JSON`);
    t.same(Object.keys(res.body as object), ['error'], `${c.name}: only { error }`);
    t.match(res.body, { error: { code: c.code, message: c.message } }, `${c.name}: code and message`);
  }
  const method = await raw(
    port,
    'PUT /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
  );
  t.match(method.headers, /\r\nallow: GET, HEAD/i, '405 lists the allowed methods');
  const http10 = await raw(port, 'GET /healthz HTTP/1.0\r\n\r\n');
  t.equal(http10.status, 200, 'HTTP/1.0 has no Host requirement');
});

/** Sends `head` and `partialBody` and keeps the connection open; resolves with what the server sends. */
function unfinished(port: number, head: string, partialBody: string): Promise<{ text: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1', () => socket.write(head + partialBody));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, ms: performance.now() - started }));
  });
}

t.test('a request whose body never finishes gets 408 and its connection closed', async (t) => {
  const cloud = await testCloud(t, { requestTimeoutMs: 400 });
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(base).port);
  const head =
    'POST /api/v1/agentgate/propose HTTP/1.1\r\nHost: x\r\n' +
    `Authorization: Bearer ${cloud.a.keys.agent}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
  const res = await unfinished(port, head, '{}');
  t.match(res.text, /^HTTP\/1\.1 408 /, `408 (${res.text.slice(0, 40)})`);
  t.match(res.text, /"code":"REQUEST_TIMEOUT"/, 'in the documented error format');
  // the limit plus at most one check interval (a quarter of it) and scheduling slack
  t.ok(res.ms < 400 + 100 + 1500, `answered after ${Math.round(res.ms)} ms`);
  t.ok(res.ms >= 350, 'not before the limit');

  // the caller's refusal record says what the caller was answered (before: 400 INVALID_JSON
  // "request body: aborted", from the body reader that lost its socket after the 408 went out)
  const refusals = async () => {
    const page = await cloud.app.inject({
      method: 'GET',
      url: '/api/v1/kernel/audit/events?type=refusal',
      headers: { authorization: `Bearer ${cloud.a.keys.auditor}` },
    });
    return page.json().events as { data: { status: number; code: string; route: string } }[];
  };
  let recorded = await refusals();
  for (let i = 0; i < 50 && recorded.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 20));
    recorded = await refusals();
  }
  t.same(
    recorded.map((e) => [e.data.status, e.data.code, e.data.route]),
    [[408, 'REQUEST_TIMEOUT', '/api/v1/agentgate/propose']],
    'one refusal, as answered',
  );
});

t.test('a connection that sends nothing is closed after the request timeout', async (t) => {
  const cloud = await testCloud(t, { requestTimeoutMs: 400 });
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const started = performance.now();
  const closedAfterMs = await new Promise<number | undefined>((resolve) => {
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    socket.on('error', () => {});
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(undefined);
    }, 4000);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(performance.now() - started);
    });
  });
  // before: Node times a request from its first byte, so a silent connection held its socket for ever
  t.ok(closedAfterMs !== undefined, `closed by the server (after ${Math.round(closedAfterMs ?? 4000)} ms)`);
  t.ok((closedAfterMs ?? 0) >= 350, 'not before the limit');

  // a connection that does send its request in time is served, and kept alive after the limit
  const socket = connect(Number(new URL(base).port), '127.0.0.1');
  t.teardown(() => socket.destroy());
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (data) => {
    text += data;
  });
  socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  await new Promise((r) => setTimeout(r, 600));
  t.match(text, /^HTTP\/1\.1 200 /, 'answered');
  t.notOk(socket.destroyed, 'and not closed as silent once it has spoken');
});

t.test('requestTimeoutMs must be a positive integer', async (t) => {
  const store = new SqliteStore({ path: ':memory:' });
  t.teardown(() => store.close());
  for (const requestTimeoutMs of [0, -1, 1.5]) {
    await t.rejects(
      buildApp({ store, ownsStore: false, signingSeed: generateEd25519().privateKey, requestTimeoutMs }),
      RangeError,
      `${requestTimeoutMs} refused`,
    );
  }
});

/**
 * Sends `head` and then body bytes as fast as the socket takes them, up to `bodyBytes`; resolves with what
 * the server answered and how many bytes it took before the connection closed (or `waitMs` passed).
 */
function streamed(
  port: number,
  head: string,
  bodyBytes: number,
  waitMs: number,
): Promise<{ text: string; sent: number; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    let text = '';
    let closed = false;
    const pump = () => {
      while (!closed && sent < bodyBytes) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    socket.on('connect', () => {
      socket.write(head);
      pump();
    });
    socket.setEncoding('latin1');
    socket.on('data', (data) => {
      text += data;
    });
    socket.on('error', () => {});
    const done = () => {
      clearTimeout(timer);
      resolve({ text, sent, closed });
    };
    socket.on('close', () => {
      closed = true;
      done();
    });
    const timer = setTimeout(() => {
      socket.destroy();
      done();
    }, waitMs);
  });
}

t.test(
  'a refusal answered before the body is read closes the connection instead of reading the rest',
  async (t) => {
    const cloud = await testCloud(t);
    const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(base).port);
    // 256 MiB announced: a refused caller must not get the server to read it (before: all of it was read
    // and dropped, the connection kept alive for the next request, whatever the body limit and without a key)
    const announced = 256 * 1024 * 1024;
    const post = (path: string, authorization: string) =>
      `POST ${path} HTTP/1.1\r\nHost: x\r\n${authorization}Content-Type: application/json\r\n` +
      `Content-Length: ${announced}\r\n\r\n`;
    const cases = [
      { name: 'no key', head: post('/api/v1/agentgate/propose', ''), status: 401 },
      {
        name: 'an unknown key',
        head: post('/api/v1/agentgate/propose', `Authorization: Bearer pgk_${'A'.repeat(43)}\r\n`),
        status: 401,
      },
      {
        name: 'a key of another scope',
        head: post('/api/v1/agentgate/propose', `Authorization: Bearer ${cloud.a.keys.auditor}\r\n`),
        status: 403,
      },
    ];
    for (const c of cases) {
      const res = await streamed(port, c.head, announced, 5000);
      t.match(res.text, new RegExp(`^HTTP/1\\.1 ${c.status} `), `${c.name}: ${c.status}`);
      t.match(res.text, /\r\nconnection: close\r\n/i, `${c.name}: the answer says the connection closes`);
      t.ok(res.closed, `${c.name}: the server closed the connection`);
      t.ok(res.sent < announced / 4, `${c.name}: ${(res.sent / 2 ** 20).toFixed(1)} MiB sent, not the body`);
    }
  },
);
