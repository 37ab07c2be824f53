/**
 * A client written from the specification alone (§4: the routes "take a JSON body") often sends its JSON
 * with no Content-Type of its own: `fetch` then labels a string body text/plain;charset=UTF-8, and a bare
 * HTTP request has no Content-Type at all. Both are read as the same strict JSON as application/json,
 * over a real socket; another media type is still 415.
 */
import { request as httpRequest } from 'node:http';
import t from 'tap';
import { bearer, registration, testCloud, transferCall } from '../helpers/cloud-app.js';

t.test(
  'fetch with a string body and no Content-Type, and a request with none, are read as JSON',
  async (t) => {
    const cloud = await testCloud(t);
    const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
    const key = cloud.a.keys.agent;

    const registered = await fetch(`${base}/api/v1/agentgate/register`, {
      method: 'POST',
      headers: bearer(key),
      body: JSON.stringify(registration('plain-client')),
    });
    t.equal(registered.status, 201, 'fetch sends text/plain;charset=UTF-8 for a string body');
    const { lobe_name: lobe } = (await registered.json()) as { lobe_name: string };

    const bare = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const body = JSON.stringify(transferCall(lobe));
      const req = httpRequest(
        `${base}/api/v1/agentgate/propose`,
        { method: 'POST', headers: { ...bearer(key), 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    t.equal(bare.status, 200, 'a propose with no Content-Type is decided');
    t.equal(
      typeof JSON.parse(bare.body).approved,
      'boolean',
      'a verdict, read from a body with no Content-Type',
    );

    const duplicate = await fetch(`${base}/api/v1/agentgate/propose`, {
      method: 'POST',
      headers: bearer(key),
      body: '{"lobe_name":"a","lobe_name":"b"}',
    });
    t.equal(duplicate.status, 400, 'the same strict JSON rules: a duplicate member is refused');
    t.equal(((await duplicate.json()) as { error: { code: string } }).error.code, 'INVALID_JSON');

    const xml = await fetch(`${base}/api/v1/agentgate/propose`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/xml' },
      body: JSON.stringify(transferCall(lobe)),
    });
    t.equal(xml.status, 415);
    t.equal(((await xml.json()) as { error: { code: string } }).error.code, 'UNSUPPORTED_MEDIA_TYPE');
  },
);
