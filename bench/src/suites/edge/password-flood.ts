/**
 * The attack on the edge's broker: `connections` sockets on 127.0.0.1, each sending a CONNECT with a wrong
 * password, reading the CONNACK, and starting over at once, until stopped. It runs as a child process on
 * the CPUs the benchmark is not pinned to (when there are any), so the attacker's own work does not share
 * the edge's CPU or event loop (an outside attacker's would not); it uses bare sockets, no MQTT library.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

export interface FloodReport {
  attempts: number;
  /** CONNACK return codes seen, by code (4 bad password, 3 server unavailable); -1 closed without one. */
  byCode: Record<string, number>;
}

export interface PasswordFlood {
  stop(): Promise<FloodReport>;
}

// CommonJS for `node -e`; node:net only. Stops on any input line and prints its report as JSON.
const ATTACKER = `
const net = require('node:net');
const [port, connections, username] = [Number(process.argv[1]), Number(process.argv[2]), process.argv[3]];
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
function finish() { process.stdout.write(JSON.stringify({ attempts, byCode }) + '\\n'); process.exit(0); }
process.stdin.on('data', () => { stopping = true; });
live = connections;
for (let i = 0; i < connections; i++) loop(i);
`;

/** CPUs this process may not run on (it was pinned), as a taskset list; undefined when it may use them all. */
function otherCpus(): string | undefined {
  const status = readFileSync('/proc/self/status', 'utf8');
  const allowed = /Cpus_allowed_list:\s*(\S+)/.exec(status)?.[1];
  if (!allowed) return undefined;
  const mine = new Set<number>();
  for (const part of allowed.split(',')) {
    const [lo, hi] = part.split('-').map(Number) as [number, number | undefined];
    for (let c = lo; c <= (hi ?? lo); c++) mine.add(c);
  }
  const others = cpus()
    .map((_, i) => i)
    .filter((c) => !mine.has(c));
  return others.length > 0 ? others.join(',') : undefined;
}

/** Starts the flood; `stop()` ends it and resolves once every socket has closed. */
export function startPasswordFlood(port: number, connections: number, username: string): PasswordFlood {
  const args = ['-e', ATTACKER, String(port), String(connections), username];
  const cpuList = otherCpus();
  const child: ChildProcess = cpuList
    ? spawn('taskset', ['-a', '-c', cpuList, process.execPath, ...args], {
        stdio: ['pipe', 'pipe', 'inherit'],
      })
    : spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const report = new Promise<FloodReport>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as FloodReport)
        : reject(new Error(`password flood exited ${code}`)),
    );
  });
  return {
    async stop() {
      child.stdin?.end('stop\n');
      return report;
    },
  };
}
