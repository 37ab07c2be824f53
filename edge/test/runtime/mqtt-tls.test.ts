import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { Aedes } from 'aedes';
import { MqttTransport } from '../../src/mqtt/mqtt-transport.js';

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** A throw-away CA and a server certificate for localhost, made with the openssl CLI. */
async function makeCertificates(dir: string) {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '1',
    '-subj',
    '/CN=Pentagate test CA',
  );
  run(
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=localhost',
  );
  await writeFile(join(dir, 'ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '1',
    '-extfile',
    'ext.cnf',
  );
  return {
    ca: await readFile(join(dir, 'ca.pem')),
    cert: await readFile(join(dir, 'server.pem')),
    key: await readFile(join(dir, 'server.key')),
  };
}

t.test('TLS to an external broker', { skip: hasOpenssl ? false : 'openssl CLI not found' }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-tls-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const pki = await makeCertificates(dir);
  const aedes = await Aedes.createBroker();
  const sockets: TLSSocket[] = [];
  const server = createServer({ cert: pki.cert, key: pki.key }, (socket) => {
    sockets.push(socket);
    aedes.handle(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    server.close();
  });
  const address = server.address();
  const url = `mqtts://localhost:${typeof address === 'object' && address ? address.port : 0}`;

  const trusted = await MqttTransport.connect({ url, robotId: 'r1', tls: { ca: pki.ca } });
  t.ok(trusted.isConnected(), 'connects when --tls-ca names the CA that signed the broker certificate');
  await trusted.close();

  await t.rejects(
    MqttTransport.connect({ url, robotId: 'r1', reconnectPeriodMs: 0, connectTimeoutMs: 5000 }),
    {
      code: 'MQTT_CONNECT_FAILED',
      message: /self-signed certificate|unable to (get|verify)/i,
    },
  );

  const insecure = await MqttTransport.connect({ url, robotId: 'r1', tls: { rejectUnauthorized: false } });
  t.ok(insecure.isConnected(), '--tls-insecure accepts an unverified certificate (lab only)');
  await insecure.close();
});
