/**
 * What the shipping tests share: an outbox of vetoes to ship, and a small real HTTP server standing in for the
 * cloud's two chain routes (GET …/ack, POST …/records), answering what the test decides.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { AuditOutbox } from '../../../src/outbox/audit-outbox.js';
import { edgeShipCommand } from '../../../src/uplink/ship-command.js';

/** Writes `count` veto records of `robotId` to `dir`/outbox.jsonl. */
export async function writeVetoOutbox(dir: string, robotId: string, count: number): Promise<void> {
  const outbox = await AuditOutbox.open(join(dir, 'outbox.jsonl'));
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      outbox.append({
        v: 1,
        robotId,
        outcome: 'vetoed',
        atMs: 1_800_000_000_000 + i,
        violations: [],
        gates: [],
      }),
    ),
  );
  await outbox.close();
}

/** A cloud whose every answer is `answer(method, parsed body)`, JSON with status 200; resolves with its URL. */
export async function fakeCloud(
  t: { teardown(fn: () => unknown): void },
  answer: (method: string, body: unknown) => unknown | Promise<unknown>,
): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', async () => {
      const json = await answer(req.method ?? '', body === '' ? undefined : JSON.parse(body));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Runs `pentagate edge ship` on `dir` against `cloud` with a throwaway edge key; its exit code and output. */
export async function shipTo(
  dir: string,
  robotId: string,
  cloud: string,
  more: Record<string, string | boolean> = {},
): Promise<{ code: number; out: string[]; err: string[] }> {
  const keyFile = join(dir, 'edge-key');
  writeFileSync(keyFile, 'pgk_test\n', { mode: 0o600 });
  const out: string[] = [];
  const err: string[] = [];
  const code = await edgeShipCommand.run(
    {
      options: { 'state-dir': dir, robot: robotId, cloud, 'cloud-key-file': keyFile, ...more },
      positionals: [],
    },
    { out: (s) => out.push(s), err: (s) => err.push(s) },
  );
  return { code, out, err };
}
