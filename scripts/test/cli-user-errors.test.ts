// Every `pentagate` command, walked from the command registry: a missing input file, a malformed key
// file and a taken port each end in one line on stderr and exit 2 (a user error), never a stack trace.
// The commands run in this process through runCli, as the root bin runs them, one at a time, with
// everything written to process.stderr captured too (a logger or a stray console.error counts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@pentagate/protocol';
import t from 'tap';
import { cliCommands, repoRoot } from './cli-registry.js';

const dir = mkdtempSync(join(tmpdir(), 'pg-cli-errors-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** A case that does not end by itself has started for real: the broken input was not checked. */
const caseTimeoutMs = 60_000;

async function run(args: string[]): Promise<{ code: number | 'timeout'; stderr: string; stdout: string }> {
  const err: string[] = [];
  const out: string[] = [];
  const io = {
    out: (s: string) => out.push(s.endsWith('\n') ? s : `${s}\n`),
    err: (s: string) => err.push(s.endsWith('\n') ? s : `${s}\n`),
  };
  const realWrite = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  let timer: NodeJS.Timeout | undefined;
  try {
    const code = await Promise.race([
      runCli(args, cliCommands, io),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), caseTimeoutMs);
      }),
    ]);
    return { code, stderr: err.join(''), stdout: out.join('') };
  } finally {
    clearTimeout(timer);
    process.stderr.write = realWrite;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Fixtures a user would have: real keys, a trust file, a profile; and the broken things.
const hmacKey = join(dir, 'cmd.jwk');
const edKey = join(dir, 'signer.pem');
const trust = join(dir, 'trust.json');
const garbage = join(dir, 'garbage.txt');
const aDirectory = join(dir, 'a-directory');
const missing = join(dir, 'no-such-file.yaml');
const profile = join(repoRoot, 'edge', 'profiles', 'ur5e-arm.yaml');
const scenario = join(repoRoot, 'simulator', 'scenarios', 'torque-limit.yaml');
const intent = join(dir, 'intent.json');
const frame = join(dir, 'frame.json');
const sampleCell = join(repoRoot, 'edge', 'samples', 'arm-cell');
writeFileSync(garbage, 'this is not a key\n{ nor: [json\n');
const joints = ['shoulder_pan', 'shoulder_lift', 'elbow', 'wrist_1', 'wrist_2', 'wrist_3'].map(
  (j) => `${j}_joint`,
);
writeFileSync(
  intent,
  JSON.stringify({
    v: 1,
    intentId: 'cli-errors-1',
    robotId: 'ur5e-01',
    kind: 'joint-trajectory',
    jointNames: joints,
    points: [{ positionsRad: joints.map(() => 0), timeFromStartMs: 500 }],
  }),
);
writeFileSync(
  frame,
  JSON.stringify({
    ...{ v: 1, robotId: 'ur5e-01', source: 'proximity-front', seq: 1, stampMs: 1_790_000_000_000 },
    ...{ kind: 'proximity', nearestHumanM: null },
  }),
);
mkdirSync(aDirectory);

const demoPort = await freePort();

/** A new path per use, for outputs a case must not find left over from an earlier case. */
const fresh = (name: string) => join(dir, `${name}-${Math.random().toString(36).slice(2)}`);

/**
 * A working command line per command, which the cases below break one input at a time. The registry
 * is the list of commands: one without a line here fails the test, so a new command cannot skip it.
 */
const workingLines: Record<string, () => string[]> = {
  'keys generate': () => ['--kind', 'hmac', '--out', fresh('new.jwk')],
  'keys public': () => [edKey, '--role', 'proof'],
  'verify proof': () => [garbage, '--trust', trust],
  'verify token': () => [garbage, '--trust', trust],
  'verify checkpoint': () => [garbage, '--trust', trust],
  'verify inclusion': () => [garbage, '--trust', trust],
  'verify consistency': () => [garbage, '--trust', trust],
  'verify kit': () => [aDirectory, '--trust', trust],
  'verify command': () => [garbage, '--hmac-key', hmacKey],
  'verify consent': () => [garbage, '--trust', trust],
  'edge run': () => [
    '--profile',
    profile,
    '--hmac-key',
    hmacKey,
    '--mqtt',
    'embedded:0',
    '--metrics-port',
    '0',
    '--state-dir',
    join(dir, 'edge-state'),
  ],
  'edge check': () => ['--profile', profile],
  'edge replay': () => [
    ...['--profile', join(sampleCell, 'profile.json'), '--bag', join(sampleCell, 'cell.mcap')],
    ...['--hmac-key', hmacKey],
  ],
  'edge broker-acl': () => ['--users', join(repoRoot, 'deploy', 'broker-users.json')],
  'edge profile init': () => ['--from-bag', join(sampleCell, 'cell.mcap'), '--out', fresh('profile.yaml')],
  'edge ship': () => [
    ...['--state-dir', fresh('ship'), '--robot', 'ur5e-01', '--cloud', 'http://127.0.0.1:9'],
    ...['--cloud-key-file', hmacKey],
  ],
  'edge hash-password': () => ['--password-file', garbage],
  'edge sensor-sign': () => ['--key', hmacKey, '--frame', frame],
  'firmware sign': () => [
    ...['--key', edKey, '--sha256', 'ab'.repeat(32), '--vendor', 'V', '--model', 'M', '--version', '1'],
    ...['--out', join(dir, 'fw.json')],
  ],
  'calib sign': () => [
    ...['--key', edKey, '--lab', 'L', '--robot', 'r1', '--sensor', 's1', '--calibration-id', 'c1'],
    ...['--expires', '2099-01-01T00:00:00Z', '--out', join(dir, 'cal.json')],
  ],
  'consent grant': () => ['--key', edKey, '--intent', intent, '--operator', 'op1'],
  'consent pending': () => ['--cloud', 'http://127.0.0.1:9', '--cloud-key-file', edKey],
  'cloud serve': () => ['--port', '0', '--state-dir', join(dir, 'cloud'), '--signing-key', edKey],
  'cloud tenant create': () => ['acme', '--state-dir', join(dir, 'cloud')],
  'cloud apikey issue': () => ['--tenant', 'ten_x', '--scope', 'agent', '--state-dir', join(dir, 'cloud')],
  'cloud apikey revoke': () => ['key_x', '--tenant', 'ten_x', '--state-dir', join(dir, 'cloud')],
  'cloud apikey list': () => ['--tenant', 'ten_x', '--state-dir', join(dir, 'cloud')],
  'cloud robot add': () => [
    ...[
      '--tenant',
      'ten_x',
      '--robot',
      'ur5e-01',
      '--command-kid',
      'k1',
      '--profile-digest',
      'ab'.repeat(32),
    ],
    ...['--firmware', garbage, '--state-dir', join(dir, 'cloud')],
  ],
  'cloud robot list': () => ['--tenant', 'ten_x', '--state-dir', join(dir, 'cloud')],
  'cloud robot retire': () => ['ur5e-01', '--tenant', 'ten_x', '--state-dir', join(dir, 'cloud')],
  'cloud operator enroll': () => [
    ...['--tenant', 'ten_x', '--operator', 'op1', '--key', edKey, '--state-dir', join(dir, 'cloud')],
  ],
  'cloud operator retire': () => [
    ...['--tenant', 'ten_x', '--operator', 'op1', '--state-dir', join(dir, 'cloud')],
  ],
  'cloud operator list': () => ['--tenant', 'ten_x', '--state-dir', join(dir, 'cloud')],
  'cloud keys list': () => ['--state-dir', join(dir, 'cloud')],
  'cloud keys retire': () => ['0123456789abcdef', '--state-dir', join(dir, 'cloud')],
  'cloud audit export': () => [
    '--out',
    join(dir, 'kit'),
    '--state-dir',
    join(dir, 'cloud'),
    '--signing-key',
    edKey,
  ],
  demo: () => ['--mqtt-port', String(demoPort), '--duration', '1', '--scenario', scenario],
  'sim run': () => [scenario],
  'sim list': () => [join(repoRoot, 'simulator', 'scenarios')],
  'sim cell': () => ['--out', fresh('cell'), '--scenario', scenario, '--hmac-key', hmacKey],
};

/** Options that name something the command writes or creates, not an input to read. */
const outputOptions = new Set(['out', 'record', 'report', 'state-dir', 'cell']);
const isKeyOption = (name: string) => /(^|-)key$|^trust$|password-file$/.test(name);
const isPortOption = (name: string) => /port$/.test(name);
/** Placeholders in a usage synopsis for a positional input path. */
const isPathPositional = (usage: string) => /^\[?(FILE|DIR|KEYFILE)\b/.test(usage.trim());

interface Case {
  name: string;
  args: string[];
  /** The stderr line must name the broken input, so the case proves that input was reached. */
  mentions: string;
}

function replaceOption(args: string[], option: string, value: string): string[] {
  const i = args.indexOf(`--${option}`);
  return i < 0 ? [...args, `--${option}`, value] : args.map((a, j) => (j === i + 1 ? value : a));
}

function casesFor(path: string[], takenPort: number): Case[] {
  const command = cliCommands.find((c) => c.path.join(' ') === path.join(' '));
  if (!command) return [];
  // A new working line per case: outputs named in it (`fresh`) must not be left over from another case.
  const base = () => workingLines[path.join(' ')]!();
  const cases: Case[] = [];
  const positionalIsPath = (command.positionals?.[1] ?? 0) > 0 && isPathPositional(command.usage);
  if (positionalIsPath && base().length > 0 && !base()[0]!.startsWith('--')) {
    cases.push({ name: 'missing FILE argument', args: [missing, ...base().slice(1)], mentions: missing });
    if (path[0] === 'keys') {
      cases.push({ name: 'malformed key FILE', args: [garbage, ...base().slice(1)], mentions: garbage });
      cases.push({
        name: 'key FILE is a directory',
        args: [aDirectory, ...base().slice(1)],
        mentions: aDirectory,
      });
    }
  }
  for (const [name, spec] of Object.entries(command.options)) {
    if (spec.type !== 'string') continue;
    if (isPortOption(name) && base().includes(`--${name}`)) {
      cases.push({
        name: `--${name} taken`,
        args: replaceOption(base(), name, String(takenPort)),
        mentions: String(takenPort),
      });
      continue;
    }
    if (name === 'mqtt' && base().includes('--mqtt')) {
      cases.push({
        name: '--mqtt embedded port taken',
        args: replaceOption(base(), name, `embedded:${takenPort}`),
        mentions: String(takenPort),
      });
      continue;
    }
    const takesPath = /FILE|DIR|PATH|TRUST|KEY|BAG/.test(spec.valueName ?? '');
    if (!takesPath || outputOptions.has(name) || !base().includes(`--${name}`)) continue;
    cases.push({ name: `--${name} missing`, args: replaceOption(base(), name, missing), mentions: missing });
    if (isKeyOption(name) && name !== 'password-file') {
      cases.push({
        name: `--${name} malformed`,
        args: replaceOption(base(), name, garbage),
        mentions: garbage,
      });
    }
  }
  if (cases.length === 0) {
    // A command that reads nothing the user names still writes somewhere: under a regular file, it cannot.
    const output = Object.keys(command.options).find(
      (o) => outputOptions.has(o) && base().includes(`--${o}`),
    );
    if (output) {
      const args = replaceOption(base(), output, join(garbage, 'inside'));
      cases.push({ name: `--${output} under a regular file`, args, mentions: garbage });
    }
  }
  return cases;
}

t.test('every command in the registry has a working command line to break', async (t) => {
  const paths = cliCommands.map((c) => c.path.join(' '));
  t.same(
    paths.filter((p) => !(p in workingLines)),
    [],
    'commands without a working line',
  );
  t.same(
    Object.keys(workingLines).filter((p) => !paths.includes(p)),
    [],
    'lines for commands that no longer exist',
  );
});

t.test('a user error ends in one line on stderr and exit 2', async (t) => {
  t.setTimeout(10 * 60_000);
  const blocker: Server = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.teardown(() => blocker.close());
  const takenPort = (blocker.address() as { port: number }).port;

  for (const args of [
    ['keys', 'generate', '--kind', 'hmac', '--out', hmacKey],
    ['keys', 'generate', '--kind', 'ed25519', '--out', edKey],
  ]) {
    t.equal((await run(args)).code, 0, `fixture: ${args.join(' ')}`);
  }
  const entry = await run(['keys', 'public', edKey, '--role', 'proof', '--json']);
  writeFileSync(trust, JSON.stringify({ keys: [JSON.parse(entry.stdout).trustEntry] }));
  t.ok(readFileSync(trust, 'utf8').includes('Ed25519'), 'fixture: trust file');

  const all = cliCommands.flatMap((c) =>
    casesFor(c.path, takenPort).map((k) => ({ ...k, command: c.path.join(' ') })),
  );
  const covered = new Set(all.map((k) => k.command));
  t.same(
    cliCommands.map((c) => c.path.join(' ')).filter((p) => !covered.has(p)),
    [],
    'every command has at least one user-error case',
  );
  for (const k of all) {
    const { code, stderr } = await run([...k.command.split(' '), ...k.args]);
    const lines = stderr.split('\n').filter((l) => l.length > 0);
    t.test(`${k.command}: ${k.name}`, async (t) => {
      t.equal(code, 2, 'exit code 2');
      t.equal(lines.length, 1, `one line on stderr, got:\n${stderr}`);
      t.match(lines[0] ?? '', `pentagate ${k.command}: `, 'names the command');
      t.ok((lines[0] ?? '').includes(k.mentions), `names the broken input (${k.mentions})`);
      t.notMatch(stderr, /\n\s+at /, 'no stack trace');
    });
  }
});
