import t from 'tap';
import {
  type CliIo,
  type Command,
  describeFetchFailure,
  ExitCode,
  InvalidInputError,
  UsageError,
  requireOption,
  resolveCommandLine,
  runCli,
} from '@pentagate/protocol';

function capture(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (s) => stdout.push(s), err: (s) => stderr.push(s) };
}

const seen: unknown[] = [];
const commands: Command[] = [
  {
    path: ['keys', 'generate'],
    summary: 'Make a key file',
    usage: '--kind KIND --out FILE',
    description: 'Writes a key with mode 0600.',
    options: {
      kind: { type: 'string', description: 'ed25519 or hmac', valueName: 'KIND' },
      out: { type: 'string', short: 'o', description: 'where to write', valueName: 'FILE' },
      format: { type: 'string', description: 'pem or jwk', default: 'pem' },
      json: { type: 'boolean', description: 'JSON output:\none object on stdout' },
    },
    async run(args, io) {
      seen.push(args);
      const kind = requireOption(args, 'kind');
      if (kind === 'bad') throw new InvalidInputError('kind: expected ed25519 or hmac, got "bad"');
      if (kind === 'crash') throw new Error('boom');
      io.out(`made ${kind}`);
      return ExitCode.ok;
    },
  },
  {
    path: ['verify', 'proof'],
    summary: 'Verify a proof packet',
    usage: 'FILE --trust TRUST',
    options: { trust: { type: 'string', description: 'trust file' } },
    positionals: [1, 1],
    async run() {
      return ExitCode.invalid;
    },
  },
];

t.test('top-level help lists every command with its summary', async (t) => {
  const io = capture();
  t.equal(await runCli(['--help'], commands, io), 0);
  t.match(io.stdout.join('\n'), /keys generate\s+Make a key file/);
  t.match(io.stdout.join('\n'), /verify proof\s+Verify a proof packet/);
  const bare = capture();
  t.equal(
    await runCli([], commands, bare),
    ExitCode.usage,
    'no arguments is a usage error that still shows help',
  );
});

t.test('command help shows usage, description, options and defaults', async (t) => {
  const io = capture();
  t.equal(await runCli(['keys', 'generate', '--help'], commands, io), 0);
  const text = io.stdout.join('\n');
  t.match(text, /Usage: pentagate keys generate --kind KIND --out FILE/);
  t.match(text, /Writes a key with mode 0600/);
  t.match(text, /-o, --out FILE\s+where to write/);
  t.match(text, /\(default: pem\)/);
  // a description of two lines continues under its first line, not at the left margin
  const [first, second] = text.split('\n').slice(text.split('\n').findIndex((l) => l.includes('--json')));
  t.equal(second?.indexOf('one object'), first?.indexOf('JSON output'));
});

t.test('group help for a prefix of several commands', async (t) => {
  const io = capture();
  t.equal(await runCli(['verify', '--help'], commands, io), 0);
  t.match(io.stdout.join('\n'), /Usage: pentagate verify <command>/);
  t.notMatch(io.stdout.join('\n'), /keys generate/);
  const wrong = capture();
  t.equal(await runCli(['verify', 'nothing'], commands, wrong), ExitCode.usage);
  t.match(wrong.stderr.join('\n'), /'verify nothing' is not a command/);
  const bare = capture();
  t.equal(await runCli(['verify'], commands, bare), ExitCode.usage);
  t.match(bare.stderr.join('\n'), /'verify' needs a subcommand; pick one of these:/);
  t.notMatch(bare.stderr.join('\n'), /is not a command/, 'a group alone is not called a wrong command');
  t.match(bare.stderr.join('\n'), /verify proof/);
});

t.test('unknown command and unknown option are usage errors with exit 2', async (t) => {
  const io = capture();
  t.equal(await runCli(['frobnicate'], commands, io), ExitCode.usage);
  t.match(io.stderr.join('\n'), /unknown command 'frobnicate'\. Run/, 'nothing close: no guess');
  const typo = capture();
  t.equal(await runCli(['verfy', 'proof', 'p.json'], commands, typo), ExitCode.usage);
  t.match(typo.stderr.join('\n'), /unknown command 'verfy'\. Did you mean 'verify proof'\?/);
  const sub = capture();
  t.equal(await runCli(['verify', 'prof', 'p.json'], commands, sub), ExitCode.usage);
  t.match(sub.stderr.join('\n'), /'verify prof p\.json' is not a command\. Did you mean 'verify proof'\?/);
  const opt = capture();
  t.equal(await runCli(['keys', 'generate', '--kindd', 'x'], commands, opt), ExitCode.usage);
  t.match(opt.stderr.join('\n'), /unknown option '--kindd' \(did you mean --kind\?\)/);
  t.match(opt.stderr.join('\n'), /`pentagate keys generate --help` lists the options/);
  t.match(opt.stderr.join('\n'), /Usage: pentagate keys generate/);
  t.notMatch(opt.stderr.join('\n'), /positional argument/, "not node:util's hint about '-' positionals");
  const far = capture();
  t.equal(await runCli(['keys', 'generate', '--zzzzzz'], commands, far), ExitCode.usage);
  t.match(far.stderr.join('\n'), /unknown option '--zzzzzz'; /, 'no suggestion when no option is close');
});

t.test('options are parsed, defaults applied, required options enforced', async (t) => {
  seen.length = 0;
  const io = capture();
  t.equal(await runCli(['keys', 'generate', '--kind', 'hmac', '-o', 'k.json'], commands, io), 0);
  t.same(io.stdout, ['made hmac']);
  t.match(seen[0], { options: { kind: 'hmac', out: 'k.json', format: 'pem' }, positionals: [] });
  const missing = capture();
  t.equal(await runCli(['keys', 'generate'], commands, missing), ExitCode.usage);
  t.match(missing.stderr.join('\n'), /--kind is required/);
});

t.test('positional counts are enforced', async (t) => {
  const seenBefore = seen.length;
  const none = capture();
  t.equal(await runCli(['verify', 'proof', '--trust', 't.json'], commands, none), ExitCode.usage);
  t.match(none.stderr.join('\n'), /expected 1 argument\(s\), got 0/);
  t.notMatch(none.stderr.join('\n'), /unexpected/);
  const extra = capture();
  t.equal(
    await runCli(['keys', 'generate', 'profile.yaml', '--kind', 'hmac'], commands, extra),
    ExitCode.usage,
  );
  t.match(extra.stderr.join('\n'), /expected 0 argument\(s\), got 1; unexpected: 'profile\.yaml'/);
  t.equal(seen.length, seenBefore, 'the command did not run');
  const one = capture();
  t.equal(await runCli(['verify', 'proof', 'p.json', '--trust', 't.json'], commands, one), ExitCode.invalid);
});

t.test('user errors print one line and no stack; internal faults print the stack', async (t) => {
  const bad = capture();
  t.equal(await runCli(['keys', 'generate', '--kind', 'bad'], commands, bad), ExitCode.usage);
  t.match(bad.stderr.join('\n'), /kind: expected ed25519 or hmac, got "bad"/);
  t.notMatch(bad.stderr.join('\n'), /at .*\.ts:\d+/);
  const crash = capture();
  t.equal(await runCli(['keys', 'generate', '--kind', 'crash'], commands, crash), ExitCode.invalid);
  t.match(crash.stderr.join('\n'), /internal error: Error: boom/);
});

t.test('resolveCommandLine checks a command line without running it', async (t) => {
  const { command, parsed } = resolveCommandLine(['verify', 'proof', 'p.json', '--trust', 't'], commands);
  t.same(command.path, ['verify', 'proof']);
  t.same(parsed.positionals, ['p.json']);
  t.throws(() => resolveCommandLine(['verify', 'proof', '--bogus'], commands), UsageError);
  t.throws(() => resolveCommandLine(['nope'], commands), /not a pentagate command/);
  t.throws(() => resolveCommandLine(['verify', 'proof'], commands), /expected 1\.\.1/);
});

t.test('a fetch that got no answer is described by its cause, not "fetch failed"', async (t) => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:8080'), {
    code: 'ECONNREFUSED',
    address: '10.0.0.9',
    port: 8080,
  });
  t.equal(
    describeFetchFailure(new TypeError('fetch failed', { cause: refused })),
    '10.0.0.9:8080 refused the connection (is the server running on that port?) (ECONNREFUSED)',
  );
  t.equal(
    describeFetchFailure(new TypeError('fetch failed', { cause: new Error('bad port') })),
    'fetch failed: bad port',
    'a cause without an errno keeps its own words',
  );
  const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
  t.match(describeFetchFailure(timeout), /^no answer in time/);
  t.equal(describeFetchFailure('text'), 'text');
});

t.test('--version prints the version the program gives, and is an unknown command without one', async (t) => {
  const io = capture();
  t.equal(await runCli(['--version'], commands, io, { version: '1.2.3' }), ExitCode.ok);
  t.same(io.stdout, ['pentagate 1.2.3']);
  const short = capture();
  t.equal(await runCli(['-V'], commands, short, { version: '1.2.3' }), ExitCode.ok);
  t.same(short.stdout, ['pentagate 1.2.3']);
  const extra = capture();
  t.equal(await runCli(['--version', 'now'], commands, extra, { version: '1.2.3' }), ExitCode.usage);
  t.match(extra.stderr.join('\n'), /--version takes no arguments, got 'now'/);
  const without = capture();
  t.equal(await runCli(['--version'], commands, without), ExitCode.usage);
  t.match(without.stderr.join('\n'), /unknown command '--version'/);
  const help = capture();
  await runCli(['--help'], commands, help, { version: '1.2.3' });
  t.match(help.stdout.join('\n'), /pentagate --version/);
  const groupHelp = capture();
  await runCli(['keys', '--help'], commands, groupHelp, { version: '1.2.3' });
  t.notMatch(groupHelp.stdout.join('\n'), /--version/);
});
