/**
 * A refusal of a body the server read to its end (not JSON, another media type, too many values) keeps the
 * HTTP/1.1 connection open for the caller's next request (RFC 9112 §9.3: connections persist unless one
 * side says `close`). Nothing of that request is left on the socket, so closing only costs the client a
 * new connection — and a client that reuses pooled connections a retry. A refusal answered before the
 * body was read still closes (framework-errors.test.ts): the rest of the body would follow on the socket.
 */
import { connect, type Socket } from 'node:net';
import t from 'tap';
import { MAX_AGENT_BODY_VALUES } from '../../src/app/json-body.js';
import { testCloud } from '../helpers/cloud-app.js';

interface Answer {
  status: number;
  head: string;
}

/** Sends one request on the socket and reads one response (Content-Length framed, as the server answers). */
function exchange(socket: Socket, request: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = text.slice(0, end);
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (Buffer.byteLength(text.slice(end + 4), 'latin1') < length) return;
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), head });
    };
    const onClose = () =>
      reject(new Error(`connection closed before a full answer: ${JSON.stringify(text)}`));
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.write(request);
  });
}

function post(path: string, key: string, body: string, contentType = 'application/json'): string {
  return (
    `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: ${contentType}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

t.test('a refused body that was read to its end leaves the connection open', async (t) => {
  const cloud = await testCloud(t);
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(base).port);
  const key = cloud.a.keys.agent;
  const tooManyValues = JSON.stringify({
    arguments: Array.from({ length: MAX_AGENT_BODY_VALUES + 1 }, () => 0),
  });
  const cases = [
    { name: 'not JSON', request: post('/api/v1/agentgate/propose', key, '{bad json'), status: 400 },
    { name: 'a duplicate member', request: post('/api/v1/selfcorrect', key, '{"a":1,"a":2}'), status: 400 },
    {
      name: 'another media type',
      request: post('/api/v1/agentgate/register', key, 'x=1', 'application/x-www-form-urlencoded'),
      status: 415,
    },
    {
      name: 'another charset',
      request: post('/api/v1/agentgate/register', key, '{}', 'application/json; charset=iso-8859-1'),
      status: 415,
    },
    { name: 'too many values', request: post('/api/v1/agentgate/propose', key, tooManyValues), status: 413 },
  ];
  for (const c of cases) {
    const socket = connect(port, '127.0.0.1');
    socket.setEncoding('latin1');
    t.teardown(() => socket.destroy());
    const refused = await exchange(socket, c.request);
    t.equal(refused.status, c.status, `${c.name}: ${c.status}`);
    t.notMatch(refused.head, /\r\nconnection: close/i, `${c.name}: the answer does not announce a close`);
    // Node's own persistence headers, as on any other answer (a client times its reuse by Keep-Alive)
    t.match(refused.head, /\r\nconnection: keep-alive\r\nkeep-alive: timeout=\d+/i, `${c.name}: keep-alive`);
    const next = await exchange(
      socket,
      `GET /api/v1/agentgate/schema HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`,
    );
    t.equal(next.status, 200, `${c.name}: the next request on the same connection is answered`);
    socket.destroy();
  }
});
