/**
 * The linear path normaliser that the protected-resource rule reads every string argument with: the same
 * answers as Node's `path.posix.normalize`, whose quadratic `..` handling let one request hold the server.
 */
import { posix } from 'node:path';
import fc from 'fast-check';
import t from 'tap';
import { cleanedPath, keptSegmentCapacity, normalizedPath } from '../../src/pentagon/tiers/lexical-path.js';

/** Paths over the characters that matter to a normaliser, so `.`, `..`, `//` and `/./` come up often. */
const pathText = fc.string({ unit: fc.constantFrom('/', '/', '.', '.', 'a', 'b', ' '), maxLength: 40 });

t.test('normalizedPath answers as path.posix.normalize does', async (t) => {
  fc.assert(
    fc.property(pathText, (path) => normalizedPath(path) === posix.normalize(path)),
    { numRuns: 20_000 },
  );
  for (const path of [
    '',
    '.',
    '..',
    '/',
    '//',
    '/..',
    '../..',
    'a/..',
    'a/../',
    './',
    '/a/b/../../..',
    'a//b/./c/',
  ]) {
    t.equal(normalizedPath(path), posix.normalize(path), JSON.stringify(path));
  }
});

t.test('cleanedPath drops only empty and `.` segments', async (t) => {
  fc.assert(
    fc.property(pathText, (path) => {
      const cleaned = cleanedPath(path);
      const segments = cleaned.split('/');
      const parents = (p: string) => p.split('/').filter((s) => s === '..').length;
      return (
        normalizedPath(cleaned) === posix.normalize(path) && // the same file, lexically
        parents(cleaned) === parents(path) && // every `..` kept: after a link it is not lexical
        segments.slice(1, -1).every((s) => s !== '' && s !== '.') && // no `//` or `/./` left inside
        cleaned.startsWith('/') === path.startsWith('/')
      );
    }),
    { numRuns: 20_000 },
  );
  t.equal(cleanedPath('/proc//self/./root/../etc'), '/proc/self/root/../etc');
  t.equal(cleanedPath('./a//b/'), 'a/b/');
});

t.test('a path of hundreds of thousands of segments is read whole', async (t) => {
  // With posix.normalize this one call took tens of seconds; the tap timeout would end the test.
  const climbs = `/srv/${'a/b/../'.repeat(120_000)}`; // 120,000 `a`s left under /srv
  t.equal(normalizedPath(`${climbs}${'../'.repeat(120_001)}etc/passwd`), '/etc/passwd');
  t.ok(normalizedPath(`${climbs}x`) === `/srv/${'a/'.repeat(120_000)}x`, 'each `a/b/..` leaves its `a`');
  t.equal(cleanedPath(`/${'/'.repeat(500_000)}etc/./passwd`), '/etc/passwd');
});

t.test('a long path does not leave its segment stack behind', async (t) => {
  normalizedPath('a/'.repeat(300_000)); // grows the stack past 300,000 segments for this call
  t.ok(keptSegmentCapacity() <= 65_536, `kept ${keptSegmentCapacity()} segments`);
  t.equal(normalizedPath(`/x/${'y/'.repeat(70_000)}../z`), `/x/${'y/'.repeat(69_999)}z`, 'still right after');
});
