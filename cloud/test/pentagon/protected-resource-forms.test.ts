/**
 * The protected-resource rule (INVARIANT) under the forms a tool could open a path in: the example
 * policy protects `/etc/**`, `policy:**` and, for fs.* and storage.* tools, `**\/.env`.
 */
import t from 'tap';
import { compileGlob } from '../../src/policy/glob.js';
import { call, codes, evaluate } from './fixtures.js';

const verdictFor = (path: string, tool = 'fs.read') =>
  evaluate(call({ tool_name: tool, arguments: { path } }));

t.test('every form of a protected path is refused', async (t) => {
  for (const path of [
    '.env', // the working directory's own secrets file: `**/` is zero or more directories
    '.ENV',
    '.env/',
    'a/.env/',
    '/etc', // the protected directory itself
    'file://localhost/etc/passwd', // RFC 8089: `localhost` is the local host
    'file:///%65tc/passwd', // a file URL's path is percent-encoded
    'file:/etc/passwd', // RFC 8089 local-path form: no authority at all
    'FILE:/%65tc/shadow',
    ' /etc/passwd',
    '\t/etc/shadow\n',
    'x/../../etc/passwd', // climbs out of an unknown start directory, which may be `/`
    '~/../../etc/passwd',
    '../../../etc/passwd',
    // a relative path opens from the working directory, `/` for a daemon (outside attack review: approved)
    'etc/passwd',
    './etc/shadow',
    // a UNC admin share is its host's whole drive, this machine's too (`\\localhost\C$`)
    '\\\\localhost\\C$\\etc\\passwd',
    '\\\\127.0.0.1\\c$\\etc\\shadow',
    '\\\\?\\UNC\\localhost\\C$\\etc\\passwd',
    ' policy:tenant-1/main',
    // a tool that percent-decodes its path (a storage API, an HTTP file server) opens these as /etc/passwd
    '/%65tc/passwd',
    '/srv/%2e%2e/etc/passwd',
    '%2Fetc%2Fpasswd',
    '%252Fetc%252Fpasswd', // encoded twice
    'app/%2eenv',
    'policy%3Atenant-1',
    // proc(5): /proc/<pid>/root links to `/`; what follows /proc/<pid>/cwd is relative to an unknown directory
    '/proc/self/root/etc/passwd',
    '/proc/1/root/etc/shadow',
    '/proc/thread-self/root//etc/',
    '/proc/self/cwd/../../../etc/passwd',
    // Windows: a drive or device prefix, and the trailing dots and spaces Win32 drops from a name
    'C:/../etc/passwd',
    'C:\\etc\\passwd',
    '\\\\?\\C:\\etc\\passwd',
    'app/.env.',
    'app/.env . ',
    // proc(5) links reached through no-op spellings, `..`, a thread's own link, or a file URL
    '/proc//self/root/etc/shadow',
    '//proc/self/root/etc/shadow',
    '/proc/./self/root/etc/shadow',
    '/proc/self/../self/root/etc/shadow',
    '/proc/self/task/4242/root/etc/shadow',
    '/proc/1/task/1/cwd/../../../../etc/passwd',
    // the working directory of a process started without one (daemons) is `/` (outside review: approved)
    '/proc/self/cwd/etc/passwd',
    '/proc/1/cwd/etc/passwd',
    '/proc/thread-self/cwd/etc/shadow',
    '/proc/1/task/1/cwd/etc/passwd',
    'file:///proc//self/root/etc/shadow',
    // a shell's `~user` is some home directory: what follows climbs from an unknown place
    '~root/../etc/shadow',
    '~postgres/../../etc/passwd',
    // NTFS: `::$DATA` is the file's own content stream
    '/app/.env::$DATA',
    'app\\.env:secrets:$DATA',
    // a `..` after a symbolic link climbs from the link's target: Debian's /var/run links to /run
    '/var/run/../etc/passwd',
    '/srv/../var/run/../etc/shadow',
    '/home/u/link/../../etc/passwd',
    // a file URL's path ends at its query or fragment (fileURLToPath drops both)
    'file:///app/.env?x',
    'file:///app/.env#frag',
    'file://localhost/app/.env#a',
    'file:/etc/passwd?raw=1',
    // open(2) stops at a NUL
    '/app/.env%00',
    '/app/.env\u0000.txt',
    '/etc/passwd%00.png',
  ]) {
    const v = verdictFor(path);
    t.equal(v.status, 'DENY', JSON.stringify(path));
    t.same(codes(v), ['INVARIANT.PROTECTED_RESOURCE'], JSON.stringify(path));
  }
});

t.test('paths outside the protected patterns still pass', async (t) => {
  for (const path of [
    'x.env',
    'app/.envrc',
    '/etcetera/notes',
    '/srv/etc/passwd',
    'srv/etc/passwd', // relative, and from `/` still /srv/etc
    '../srv/data.csv',
    'file://fileserver/etc/passwd', // another host's file, not this one
    'file://etc/passwd', // the host `etc`, path /passwd
    'reports/Q1%20summary%2Epdf', // decoded, still not protected
    'C:/Users/me/notes.txt',
    '/proc/self/status',
    'release-1.2.',
    'policy-notes.txt',
    '~/notes/today.md',
    '~root/reports/q1.csv',
    '/proc/self/task/4242/status',
    'https://example.com:8443/etc-notes',
    'app/.env-example::$DATA',
    '/srv/app/../data/report.csv', // every climb still lands outside the patterns
    'file:///srv/report.pdf?download=1',
    'file:///srv/a%3Fb/.envoy', // `%3F` is a literal `?` in the name
    '/srv/report%00.csv',
  ]) {
    t.equal(verdictFor(path).status, 'ALLOW', JSON.stringify(path));
  }
  t.equal(verdictFor('.env', 'email.read').status, 'ALLOW', 'the .env rule is scoped to fs.* and storage.*');
});

t.test('path globs: `**/` may match no directory, a final `/**` the directory itself', async (t) => {
  const matches = (pattern: string, value: string) => compileGlob(pattern, 'path').test(value);
  t.ok(matches('a/**/b', 'a/b'));
  t.ok(matches('a/**/b', 'a/x/y/b'));
  t.notOk(matches('a/**/b', 'ab'));
  t.ok(matches('/var/log/**', '/var/log'));
  t.ok(matches('/var/log/**', '/var/log/'));
  t.notOk(matches('/var/log/**', '/var/logs'));
  t.ok(matches('x**y', 'x/a/y'), 'a `**` inside a segment still matches anything');
  t.notOk(matches('/srv/*/secret', '/srv/a/b/secret'), '`*` stays within one segment');
  t.ok(matches('policy:**', 'policy:'));
  t.ok(compileGlob('shell.*', 'name').test('Shell.Exec'), 'name globs are unchanged');
});

t.test('a string with more path readings than are derived is refused, not read in part', async (t) => {
  // Each `/proc/self/root/` prefix gives one more reading; a few are read through to the path they name.
  t.equal(verdictFor(`${'/proc/self/root'.repeat(10)}/srv/data.csv`).status, 'ALLOW');
  t.equal(verdictFor(`${'/proc/self/root'.repeat(10)}/etc/passwd`).status, 'DENY');
  const v = verdictFor(`${'/proc/self/root'.repeat(200)}/srv/data.csv`);
  t.equal(v.status, 'DENY');
  t.ok(codes(v).length > 0 && codes(v).every((c) => c === 'INVARIANT.PROTECTED_RESOURCE'), codes(v).join());
  t.match(v.violations[0]?.message, /more readings as a path than the gate derives/);
});

t.test('a path of hundreds of thousands of `..` segments is resolved', async (t) => {
  // Before the linear normaliser this one argument held the server for tens of seconds (tap would time out).
  const climbs = `/srv/${'a/b/../'.repeat(100_000)}`;
  t.ok(
    codes(verdictFor(`${climbs}${'../'.repeat(100_001)}etc/passwd`)).includes('INVARIANT.PROTECTED_RESOURCE'),
  );
  // (the injection screen refuses such a repetitive text for its own reasons)
  t.notOk(codes(verdictFor(`${climbs}data.csv`)).includes('INVARIANT.PROTECTED_RESOURCE'));
});
