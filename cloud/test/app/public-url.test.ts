/**
 * `cloud serve --public-url`: registration's `propose_endpoint` (specification §2.2, "the address for
 * later proposals") under the address agents reach the API at, so a proxy's path prefix is not lost; a
 * URL that cannot be such an address is refused before the server starts. Without one, the address is
 * under the scheme and Host the agent called, so it can be passed to fetch as it is.
 */
import t from 'tap';
import { addressFor, addressOf, publicUrlOf } from '../../src/app/public-url.js';
import { bearer, registration, testCloud, transferCall } from '../helpers/cloud-app.js';
import { cli } from '../helpers/cli.js';

t.test('publicUrlOf takes an http(s) base and addressOf puts paths under it', async (t) => {
  const prefixed = publicUrlOf('https://gw.example/pentagate');
  t.equal(
    addressOf('/api/v1/agentgate/propose', prefixed),
    'https://gw.example/pentagate/api/v1/agentgate/propose',
  );
  t.equal(
    addressOf('/api/v1/agentgate/propose', publicUrlOf('https://gw.example/pentagate/')),
    'https://gw.example/pentagate/api/v1/agentgate/propose',
    'a trailing slash changes nothing',
  );
  t.equal(
    addressOf('/api/v1/agentgate/propose', publicUrlOf('http://10.0.0.5:8080')),
    'http://10.0.0.5:8080/api/v1/agentgate/propose',
  );
  t.equal(addressOf('/api/v1/agentgate/propose', undefined), '/api/v1/agentgate/propose', 'none: the path');
  for (const [bad, why] of [
    ['gw.example/pentagate', /absolute/],
    ['ftp://gw.example/', /http or https/],
    ['https://user:secret@gw.example/', /credentials/],
    ['https://gw.example/?a=1', /query or fragment/],
    ['https://gw.example/#top', /query or fragment/],
    ['https://gw.example/?', /query or fragment/],
    [`https://gw.example/${'p'.repeat(1100)}`, /longer than 1024/],
  ] as const) {
    t.throws(() => publicUrlOf(bad), why, `${bad.slice(0, 40)}: refused`);
  }
});

t.test(
  'registration answers with propose_endpoint under the public URL, and proposing there works',
  async (t) => {
    const cloud = await testCloud(t, { publicUrl: 'https://gw.example/pentagate/' });
    const res = await cloud.app.inject({
      method: 'POST',
      url: '/api/v1/agentgate/register',
      headers: bearer(cloud.a.keys.agent),
      payload: registration('prefixed-agent'),
    });
    t.equal(res.statusCode, 201);
    const endpoint = res.json().propose_endpoint as string;
    t.equal(endpoint, 'https://gw.example/pentagate/api/v1/agentgate/propose');
    // what the proxy forwards once it strips its prefix is a route this server serves
    const forwarded = new URL(endpoint).pathname.replace(/^\/pentagate/, '');
    const propose = await cloud.app.inject({
      method: 'POST',
      url: forwarded,
      headers: bearer(cloud.a.keys.agent),
      payload: transferCall(res.json().lobe_name),
    });
    t.equal(propose.statusCode, 200, propose.body);
  },
);

t.test('cloud serve refuses a --public-url that is not an http(s) base, with exit code 2', async (t) => {
  const run = await cli('cloud', 'serve', '--port', '0', '--public-url', 'ftp://gw.example/');
  t.equal(run.code, 2);
  t.match(run.err, /--public-url: .*http or https/);
});

t.test('without a public URL the address is under the scheme and Host of the request', async (t) => {
  const path = '/api/v1/agentgate/propose';
  for (const [protocol, host, want] of [
    ['http', '127.0.0.1:8080', 'http://127.0.0.1:8080/api/v1/agentgate/propose'],
    ['https', 'gate.example.com', 'https://gate.example.com/api/v1/agentgate/propose'],
    ['http', '[::1]:3000', 'http://[::1]:3000/api/v1/agentgate/propose'],
    ['http', 'Gate-1.Example.COM:443', 'http://gate-1.example.com:443/api/v1/agentgate/propose'],
    ['https', 'gate.example.com:443', 'https://gate.example.com/api/v1/agentgate/propose'],
  ] as const) {
    t.equal(addressFor(path, undefined, { protocol, host }), want, `${protocol} ${host}`);
  }
  // a Host that is no host name and port is no address to hand back: the bare path
  for (const host of [
    undefined,
    '',
    'user@evil.example',
    'evil.example/phish?',
    'evil.example#x',
    'a b',
    'x'.repeat(300),
    '-leading.example',
    'host:99999999',
  ]) {
    t.equal(addressFor(path, undefined, { protocol: 'http', host }), path, `Host ${JSON.stringify(host)}`);
  }
  t.equal(
    addressFor(path, publicUrlOf('https://gw.example/pentagate/'), {
      protocol: 'http',
      host: 'internal:8080',
    }),
    'https://gw.example/pentagate/api/v1/agentgate/propose',
    'a public URL wins over the Host',
  );
});

t.test(
  'over a real socket, fetch takes propose_endpoint as it is and the proposal is answered',
  async (t) => {
    const cloud = await testCloud(t);
    const base = await cloud.app.listen({ host: '127.0.0.1', port: 0 });
    const res = await fetch(`${base}/api/v1/agentgate/register`, {
      method: 'POST',
      headers: { ...bearer(cloud.a.keys.agent), 'content-type': 'application/json' },
      body: JSON.stringify(registration('socket-agent')),
    });
    t.equal(res.status, 201);
    const body = (await res.json()) as { lobe_name: string; propose_endpoint: string };
    t.equal(body.propose_endpoint, `${base}/api/v1/agentgate/propose`);
    const propose = await fetch(body.propose_endpoint, {
      method: 'POST',
      headers: { ...bearer(cloud.a.keys.agent), 'content-type': 'application/json' },
      body: JSON.stringify(transferCall(body.lobe_name)),
    });
    t.equal(propose.status, 200, 'the proposal at propose_endpoint is answered');
    t.equal(((await propose.json()) as { approved: boolean }).approved, true);
  },
);
