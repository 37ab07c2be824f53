/**
 * The attack on the edge's broker: `connections` sockets on 127.0.0.1, each sending a CONNECT with a wrong
 * password, reading the CONNACK, and starting over at once, until stopped. It runs on a worker thread so
 * the attacker's own work does not sit on the edge's event loop (an outside attacker's would not); it uses
 * bare sockets (no MQTT library) and only the libuv network path, not the thread pool.
 */
import { Worker } from 'node:worker_threads';

export interface FloodReport {
  attempts: number;
  /** CONNACK return codes seen, by code (4 bad password, 3 server unavailable); -1 closed without one. */
  byCode: Record<string, number>;
}

export interface PasswordFlood {
  stop(): Promise<FloodReport>;
}

// CommonJS for `eval: true`; node:net only.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const net = require('node:net');
const { port, connections, username } = workerData;
function str(s) { const b = Buffer.from(s, 'utf8'); return Buffer.concat([Buffer.from([b.length >> 8, b.length & 255]), b]); }
function connectPacket(clientId, password) {
  const body = Buffer.concat([
    str('MQTT'), Buffer.from([4, 0xc2, 0, 30]),
    str(clientId), str(username), str(password),
  ]);
  const len = [];
  let x = body.length;
  do { let b = x % 128; x = Math.floor(x / 128); if (x > 0) b |= 128; len.push(b); } while (x > 0);
  return Buffer.concat([Buffer.from([0x10, ...len]), body]);
}
let stopping = false;
let attempts = 0;
const byCode = {};
let live = 0;
function loop(i) {
  if (stopping) { if (--live === 0) finish(); return; }
  attempts += 1;
  let code = -1;
  const socket = net.connect({ host: '127.0.0.1', port }, () => {
    socket.write(connectPacket(username + '-' + i + '-' + attempts, 'wrong-' + attempts));
  });
  socket.on('data', (d) => { if (d[0] === 0x20 && d.length >= 4) { code = d[3]; socket.destroy(); } });
  socket.on('error', () => {});
  socket.on('close', () => { byCode[code] = (byCode[code] || 0) + 1; setImmediate(() => loop(i)); });
  socket.setTimeout(10000, () => socket.destroy());
}
function finish() { parentPort.postMessage({ attempts, byCode }); }
parentPort.on('message', () => { stopping = true; });
live = connections;
for (let i = 0; i < connections; i++) loop(i);
`;

/** Starts the flood; `stop()` ends it and resolves once every socket has closed. */
export function startPasswordFlood(port: number, connections: number, username: string): PasswordFlood {
  const worker = new Worker(WORKER, { eval: true, workerData: { port, connections, username } });
  const report = new Promise<FloodReport>((resolve, reject) => {
    worker.once('message', (r: FloodReport) => resolve(r));
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const r = await report;
      await worker.terminate();
      return r;
    },
  };
}
