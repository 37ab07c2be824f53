// Every ```sh block of every README runs as pasted, in order per README, in a fresh copy of the
// checkout, and does what its prose says: it exits 0, and its output matches each `expect` marker.
// Blocks that cannot run here carry `<!-- readme-test: skip (reason) -->` (see readme-blocks.ts).
// Ports come from the environment (PORT, MQTT_PORT, METRICS_PORT: free ports, one set per README),
// so a README run never collides with a local broker on 1883 or a server on 8080.
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import t from 'tap';
import { type ReadmeBlock, readmeBlocks } from './readme-blocks.js';

const repoRoot = join(import.meta.dirname, '..', '..');
const readmeTimeoutMs = 10 * 60_000;
const parallelReadmes = 3;

/** Files of the checkout as a fresh clone has them: tracked and new, never ignored ones. */
function checkoutFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  return out.split('\0').filter((f) => f.length > 0 && existsSync(join(repoRoot, f)));
}

const readmes = checkoutFiles()
  .filter((f) => f === 'README.md' || f.endsWith('/README.md'))
  .sort();

const work = mkdtempSync(join(tmpdir(), 'pg-readme-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));

/**
 * One copy of the checkout that every README's copy starts from: the files, the build already made
 * (dist/ and build info, so no README pays for a full build) and node_modules as links into this
 * checkout's installed tree, except the workspace links, which point into the copy itself.
 */
function makeTemplate(): string {
  const template = join(work, 'template');
  for (const f of checkoutFiles()) {
    mkdirSync(dirname(join(template, f)), { recursive: true });
    cpSync(join(repoRoot, f), join(template, f), { preserveTimestamps: true });
  }
  for (const pkg of ['.', ...workspaceDirs()]) {
    for (const built of ['dist', 'tsconfig.tsbuildinfo']) {
      const from = join(repoRoot, pkg, built);
      if (existsSync(from)) {
        cpSync(from, join(template, pkg, built), { recursive: true, preserveTimestamps: true });
      }
    }
  }
  const modules = join(template, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(join(repoRoot, 'node_modules'))) {
    if (entry === '@pentagate') {
      mkdirSync(join(modules, entry));
      for (const pkg of readdirSync(join(repoRoot, 'node_modules', entry))) {
        // Relative links (../../edge): in the copy they reach the copy's packages.
        symlinkSync(readlinkSync(join(repoRoot, 'node_modules', entry, pkg)), join(modules, entry, pkg));
      }
    } else {
      symlinkSync(join(repoRoot, 'node_modules', entry), join(modules, entry));
    }
  }
  return template;
}

function workspaceDirs(): string[] {
  return JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).workspaces as string[];
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The environment a user's shell has: none of the test runner's loader options and TAP variables, and none
 * of the variables npm sets for the script that started the tests (npm_config_local_prefix would send a
 * block's `npm run` to this checkout instead of the copy).
 */
function userEnv(): NodeJS.ProcessEnv {
  const runnerOnly = /^(NODE_OPTIONS|INIT_CWD|TAP|_TAP|TS_NODE_|npm_)/;
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!runnerOnly.test(k)) env[k] = v;
  return env;
}

const startMark = (n: number) => `@@readme-test block ${n} starts`;
const okMark = (n: number) => `@@readme-test block ${n} ok`;

interface BlockRun {
  block: ReadmeBlock;
  ran: boolean;
  ok: boolean;
  output: string;
}

/** Runs the runnable blocks of one README in one shell, as a user pastes them one after another. */
async function runReadme(template: string, readme: string, blocks: ReadmeBlock[]) {
  const copy = join(work, readme.replaceAll('/', '_'));
  cpSync(template, copy, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  const runnable = blocks.filter((b) => b.skipReason === undefined);
  const script = [
    // tap's process tracking puts its loader back into the environment of every child it sees spawned,
    // so the shell itself drops what a user's shell would not have, and npm's script PATH entries.
    'unset NODE_OPTIONS INIT_CWD $(compgen -e | grep -E "^(_?TAP|TS_NODE_|npm_)")',
    `PATH=$(printf %s "$PATH" | tr ':' '\\n' | grep -v -e node_modules -e node-gyp-bin | paste -sd:)`,
    'set -eo pipefail',
    ...runnable.flatMap((b, n) => [
      `printf '\\n%s\\n' '${startMark(n)}'`,
      b.code,
      `printf '\\n%s\\n' '${okMark(n)}'`,
    ]),
  ].join('\n');
  writeFileSync(join(work, `${readme.replaceAll('/', '_')}.sh`), script);
  const logPath = join(work, `${readme.replaceAll('/', '_')}.log`);
  const log = openSync(logPath, 'w');
  const env = {
    ...userEnv(),
    PORT: String(await freePort()),
    MQTT_PORT: String(await freePort()),
    METRICS_PORT: String(await freePort()),
  };
  const started = Date.now();
  // Its own process group, so servers a block starts with `&` are stopped with it.
  const shell = spawn('bash', [join(work, `${readme.replaceAll('/', '_')}.sh`)], {
    cwd: copy,
    env,
    detached: true,
    stdio: ['ignore', log, log],
  });
  const timedOut = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(true), readmeTimeoutMs);
    shell.on('exit', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  const seconds = (Date.now() - started) / 1000;
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    try {
      process.kill(-(shell.pid as number), signal);
    } catch {
      break; // the group is gone
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  const output = readFileSync(logPath, 'utf8');
  const runs: BlockRun[] = runnable.map((block, n) => {
    const from = output.indexOf(startMark(n));
    const end = output.indexOf(okMark(n));
    const next = output.indexOf(startMark(n + 1));
    const section = from < 0 ? '' : output.slice(from, end >= 0 ? end : next >= 0 ? next : undefined);
    return { block, ran: from >= 0, ok: end >= 0, output: section };
  });
  return { runs, seconds, timedOut, tail: output.slice(-3000) };
}

async function inPool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

// The file's own budget, not only the subtest's: tap's runner kills a file at the configured
// per-file timeout (120 s) unless the root test raises it, and the READMEs together take ~2 min.
t.setTimeout(readmeTimeoutMs * 2);

t.test('the README shell blocks', async (t) => {
  t.setTimeout(readmeTimeoutMs * 2);
  t.ok(readmes.includes('README.md'), 'the root README is found');
  const parsed = readmes.map((r) => ({
    readme: r,
    blocks: readmeBlocks(readFileSync(join(repoRoot, r), 'utf8')),
  }));
  for (const { readme, blocks } of parsed) {
    for (const b of blocks) {
      t.same(b.badMarkers, [], `${readme}:${b.line}: markers are understood (skip needs a reason)`);
    }
  }
  const withBlocks = parsed.filter((p) => p.blocks.some((b) => b.skipReason === undefined));
  const template = makeTemplate();
  const results = new Map<string, Awaited<ReturnType<typeof runReadme>>>();
  await inPool(withBlocks, parallelReadmes, async ({ readme, blocks }) => {
    results.set(readme, await runReadme(template, readme, blocks));
  });
  for (const { readme } of withBlocks) {
    const { runs, seconds, timedOut, tail } = results.get(readme)!;
    t.test(readme, async (t) => {
      t.comment(`${readme}: ${runs.length} blocks in ${seconds.toFixed(1)} s`);
      t.notOk(timedOut, `finishes within ${readmeTimeoutMs / 60_000} min`, { tail });
      for (const run of runs) {
        const where = `${readme}:${run.block.line}`;
        t.ok(run.ok, `${where} runs and exits 0`, { output: run.output.slice(-3000) });
        for (const re of run.block.expect) {
          t.match(run.output, re, `${where} prints ${re}`);
        }
      }
    });
  }
});
