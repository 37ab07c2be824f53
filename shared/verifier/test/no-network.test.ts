/**
 * The verifier works offline ("No network access"): no module it loads — its own or the
 * @pentagate packages it imports, transitively — imports a network module or calls fetch.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const here = dirname(fileURLToPath(import.meta.url));
const sharedDir = resolve(here, '../..');
const NETWORK_MODULES = /^(?:node:)?(?:net|http|https|http2|tls|dgram|dns|undici|mqtt|pg|ws)(?:\/.*)?$/;
const IMPORT_RE =
  /(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(path)));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

t.test('the verifier and the packages it loads import no network module and never call fetch', async (t) => {
  const packages = ['verifier', 'crypto', 'protocol'];
  const files = (await Promise.all(packages.map((p) => sourceFiles(join(sharedDir, p, 'src'))))).flat();
  t.ok(files.length > 10, `scanned ${files.length} files`);
  const offenders: string[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    for (const m of text.matchAll(IMPORT_RE)) {
      const spec = m[1] ?? m[2]!;
      if (NETWORK_MODULES.test(spec)) offenders.push(`${file}: imports ${spec}`);
      if (spec.startsWith('@pentagate/') && !packages.some((p) => spec.startsWith(`@pentagate/${p}`))) {
        offenders.push(`${file}: imports ${spec}, a package outside the offline set`);
      }
    }
    if (/\bfetch\s*\(/.test(text)) offenders.push(`${file}: calls fetch`);
  }
  t.same(offenders, []);
});

t.test(
  'loading the verifier and verifying a whole audit kit opens no socket and calls no fetch',
  async (t) => {
    const used: string[] = [];
    const originalFetch = globalThis.fetch;
    const originalConnect = Socket.prototype.connect;
    globalThis.fetch = (async (input: unknown) => {
      used.push(`fetch ${String(input)}`);
      throw new Error('network used');
    }) as typeof fetch;
    Socket.prototype.connect = function (this: Socket, ...args: unknown[]) {
      used.push(`socket connect ${JSON.stringify(args[0])}`);
      throw new Error('network used');
    } as typeof Socket.prototype.connect;
    t.teardown(() => {
      globalThis.fetch = originalFetch;
      Socket.prototype.connect = originalConnect;
    });
    const { buildLog, tempDir, trustDocument, writeKit } = await import('./fixtures/artifacts.js');
    const { pentagate } = await import('./fixtures/cli.js');
    const dir = await tempDir(t);
    const trust = join(dir, 'trust.json');
    await writeFile(trust, JSON.stringify(trustDocument()));
    const kit = await writeKit(dir, buildLog(4));
    const r = await pentagate('verify', 'kit', kit, '--trust', trust, '--at', '2025-06-01T12:00:10Z');
    t.equal(r.code, 0, 'the kit verifies offline');
    t.same(used, []);
  },
);
