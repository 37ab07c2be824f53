/**
 * The Authorization header as HTTP defines it: the scheme is case-insensitive (RFC 9110 §11.1) and followed by
 * one or more spaces (RFC 6750 §2.1); a 401 says which scheme to use (RFC 6750 §3); and a request with two
 * Authorization fields is refused, since a proxy in front that reads the last one would see another caller than
 * this server, which would read the first. Sent over a real socket: HTTP clients do not send duplicate fields.
 */
import { connect } from 'node:net';
import t from 'tap';
import { bearer, testCloud } from '../helpers/cloud-app.js';

function rawGet(
  port: number,
  path: string,
  headerLines: string[],
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = `GET ${path} HTTP/1.1\r\nHost: x\r\n${headerLines.map((h) => `${h}\r\n`).join('')}Connection: close\r\n\r\n`;
    // written, not ended: a half-closed socket lets Node abort a request whose answer waits on a write
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), text }));
  });
}

t.test('the scheme is case-insensitive and may be followed by several spaces', async (t) => {
  const cloud = await testCloud(t);
  const key = cloud.a.keys.auditor;
  for (const authorization of [`Bearer ${key}`, `bearer ${key}`, `BEARER ${key}`, `Bearer   ${key}`]) {
    const res = await cloud.app.inject({ method: 'GET', url: '/api/v1/keys', headers: { authorization } });
    t.equal(res.statusCode, 200, JSON.stringify(authorization.replace(key, 'KEY')));
  }
  for (const authorization of [`Bearer${key}`, `Bearer ${key} extra`, `Basic ${key}`]) {
    const res = await cloud.app.inject({ method: 'GET', url: '/api/v1/keys', headers: { authorization } });
    t.equal(res.statusCode, 401, `${JSON.stringify(authorization.replace(key, 'KEY'))} refused`);
  }
});

t.test('a 401 carries WWW-Authenticate: Bearer (RFC 6750 §3)', async (t) => {
  const cloud = await testCloud(t);
  const none = await cloud.app.inject({ method: 'GET', url: '/api/v1/keys' });
  t.equal(none.statusCode, 401);
  t.equal(none.headers['www-authenticate'], 'Bearer realm="pentagate"', 'no key: the scheme');
  const unknown = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/keys',
    headers: bearer(`pgk_${'A'.repeat(43)}`),
  });
  t.equal(unknown.statusCode, 401);
  t.equal(
    unknown.headers['www-authenticate'],
    'Bearer realm="pentagate", error="invalid_token"',
    'a refused key: invalid_token',
  );
  const ok = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/keys',
    headers: bearer(cloud.a.keys.auditor),
  });
  t.notOk('www-authenticate' in ok.headers, 'not on a success');
});

t.test('two Authorization fields are refused whichever comes first', async (t) => {
  const cloud = await testCloud(t);
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(base).port);
  const valid = `Authorization: Bearer ${cloud.a.keys.auditor}`;
  const other = `Authorization: Bearer ${cloud.b.keys.auditor}`;
  const unknown = `Authorization: Bearer pgk_${'A'.repeat(43)}`;
  t.equal((await rawGet(port, '/api/v1/keys', [valid])).status, 200, 'one field: served');
  for (const [name, lines] of [
    ['valid then unknown', [valid, unknown]],
    ['unknown then valid', [unknown, valid]],
    ["two tenants' keys", [valid, other]],
  ] as const) {
    const res = await rawGet(port, '/api/v1/keys', [...lines]);
    t.equal(res.status, 400, `${name}: 400`);
    t.match(res.text, /"code":"INVALID_HEADERS"/, `${name}: INVALID_HEADERS`);
    t.match(res.text, /one Authorization header, got several/, `${name}: says why`);
  }
});

t.test('a refused Authorization header says what is wrong with it and never repeats the token', async (t) => {
  const cloud = await testCloud(t);
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const key = cloud.a.keys.auditor;
  const secret = 'sk-proj-s3cretTokenOfAnotherService';
  const cases: [string, RegExp][] = [
    // the key of another service sent by mistake: the scheme is right, the token is not a Pentagate key
    [
      `Bearer ${secret}`,
      /got a Bearer token that is not a Pentagate API key \(35 characters, not starting with pgk_\)/,
    ],
    [
      `Bearer ${key}x`,
      /got a Bearer token that is not a Pentagate API key \(48 characters, pgk_ not followed by exactly 43 base64url characters\)/,
    ],
    [`Basic ${secret}`, /got the scheme Basic/],
    [key, /got no scheme, only a token: put Bearer and a space before the key/],
    ['Bearer', /got Bearer and no key/],
    [`Bearer ${key} ${secret}`, /got Bearer followed by more than one word/],
    [`Bearer\t${key}`, /got Bearer and the key separated by another character than spaces/],
    ['', /got an empty header/],
    // a first word that is no known scheme may be a credential itself
    [`${secret} ${key}`, /got another scheme than Bearer$/],
  ];
  for (const [authorization, message] of cases) {
    const res = await fetch(`${base}/api/v1/keys`, { headers: { authorization } });
    const text = await res.text();
    const shown = JSON.stringify(authorization.replace(key, 'KEY').replace(secret, 'SECRET'));
    t.equal(res.status, 401, shown);
    t.match(
      JSON.parse(text).error.message,
      /^expected Authorization: Bearer pgk_<43 base64url characters>, /,
      shown,
    );
    t.match(JSON.parse(text).error.message, message, shown);
    t.notMatch(text, /s3cret|pgk_[A-Za-z0-9_-]{43}/, `${shown}: the token is not repeated`);
  }
});

t.test('a key a client puts in the URL is masked in the server log and in refusal records', async (t) => {
  const lines: string[] = [];
  const cloud = await testCloud(t, { logger: 'info', logStream: { write: (line) => void lines.push(line) } });
  const leaked = cloud.a.keys.agent;
  const headers = bearer(cloud.a.keys.auditor);
  const before = await cloud.store.auditSize();
  const inQuery = await cloud.app.inject({
    method: 'GET',
    url: `/api/v1/audit/entries?key=${leaked}`,
    headers,
  });
  t.equal(inQuery.statusCode, 400, 'an unknown query member');
  const inPath = await cloud.app.inject({ method: 'GET', url: `/api/v1/keys/${leaked}`, headers });
  t.equal(inPath.statusCode, 404);
  t.notMatch(inPath.body, leaked, 'nor is it repeated to the client');
  t.ok(lines.length > 0, 'the requests were logged');
  t.notOk(
    lines.some((line) => line.includes(leaked)),
    'no log line holds the key (before: "url":"/api/v1/audit/entries?key=pgk_…")',
  );
  t.ok(
    lines.some((line) => line.includes('pgk_[redacted]')),
    'the URL is logged with the key masked',
  );
  const entries = await cloud.store.auditEntries(before, await cloud.store.auditSize());
  t.same(
    entries.map((e) => e.entry.type),
    ['refusal', 'refusal'],
  );
  t.notOk(
    entries.some((e) => JSON.stringify(e.entry).includes(leaked)),
    'no refusal record holds it (before: the 404 named the path)',
  );
});

t.test('a key the client percent-encoded is masked as well', async (t) => {
  const lines: string[] = [];
  const cloud = await testCloud(t, { logger: 'info', logStream: { write: (line) => void lines.push(line) } });
  const leaked = cloud.a.keys.admin;
  const secret = leaked.slice('pgk_'.length);
  const everyByte = [...leaked].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
  const before = await cloud.store.auditSize();
  for (const written of [`pgk%5F${secret}`, `pgk%5f${secret}`, everyByte, everyByte.toLowerCase()]) {
    const res = await cloud.app.inject({
      method: 'GET',
      url: `/api/v1/nope/${written}`,
      headers: bearer(cloud.a.keys.auditor),
    });
    t.equal(res.statusCode, 404, written);
    t.notMatch(res.body, written, 'the answer does not repeat it');
  }
  const entries = await cloud.store.auditEntries(before, await cloud.store.auditSize());
  t.equal(entries.length, 4, 'each 404 is a refusal record');
  const records = JSON.stringify(entries.map((e) => e.entry));
  t.ok(lines.length > 0, 'the requests were logged');
  // the 43 characters after the prefix, in any of the forms sent, appear nowhere
  for (const text of [records, ...lines]) {
    t.notOk(text.includes(secret), 'not in clear');
    t.notOk(text.toLowerCase().includes(everyByte.slice(12).toLowerCase()), 'nor percent-encoded');
  }
  t.match(records, 'pgk_[redacted]', 'the refusals name what was sent, masked');
});

t.test('a key sent as a path parameter is masked where a refusal quotes it', async (t) => {
  const cloud = await testCloud(t);
  const leaked = cloud.a.keys.admin;
  const before = await cloud.store.auditSize();
  const res = await cloud.app.inject({
    method: 'GET',
    url: `/api/v1/proofs/${leaked}`,
    headers: bearer(cloud.a.keys.auditor),
  });
  t.equal(res.statusCode, 404);
  t.equal(res.json().error.code, 'DECISION_NOT_FOUND');
  t.match(res.json().error.message, 'pgk_[redacted]', 'the message still names what was sent, masked');
  t.notMatch(res.body, leaked, 'the answer does not repeat the key');
  const entries = await cloud.store.auditEntries(before, await cloud.store.auditSize());
  t.same(
    entries.map((e) => e.entry.type),
    ['refusal'],
  );
  t.notOk(
    JSON.stringify(entries[0]!.entry).includes(leaked),
    'the refusal record does not hold it (before: its message quoted the decisionId, key and all)',
  );
});
