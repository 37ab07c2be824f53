/** The readings of an argument as a shell runs it (command-readings.ts), checked reading by reading. */
import t from 'tap';
import { commandReadings, shellReading } from '../../src/pentagon/command-readings.js';

t.test('quote removal, backslashes, $IFS, empty parameters and brace lists', async (t) => {
  for (const [written, runs] of [
    ['r""m -r""f /', 'rm -rf /'],
    ["r'm' -rf /", 'rm -rf /'],
    ['r\\m -rf /', 'rm -rf /'],
    ['rm \\\n-rf /', 'rm -rf /'], // a line continuation
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter, written as the shell reads it
    ['rm${IFS}-rf${IFS}/', 'rm -rf /'],
    ['rm$IFS-rf$IFS/', 'rm -rf /'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter, written as the shell reads it
    ['rm${IFS:0:1}-rf /', 'rm -rf /'],
    ['r$1m -rf /', 'rm -rf /'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter, written as the shell reads it
    ['r${@}m -rf /', 'rm -rf /'],
    ["$'rm' -rf /", 'rm -rf /'],
    ['{rm,-rf,/}', 'rm -rf /'],
    ['"it\'s"', "it's"], // a single quote inside double quotes is a character
    ["'a\"b'", 'a"b'], // and a double quote inside single quotes
    ['echo "$HOME"', 'echo $HOME'], // other parameters are left as written
    ["echo 'open", 'echo open'], // an unclosed quote runs to the end
  ] as const) {
    t.equal(shellReading(written), runs, JSON.stringify(written));
  }
});

t.test('readings are fields of their own, and only where they differ', async (t) => {
  const read = (value: string) => commandReadings([{ path: '/arguments/x', value }]);
  t.same(read('rm -rf ./build'), [], 'no shell syntax: no reading');
  t.same(read('Please format the report.'), []);
  t.same(read("os.system('rm -rf /')"), [
    { path: '/arguments/x#shell', value: 'os.system(rm -rf /)' },
    { path: '/arguments/x#literal-0', value: 'rm -rf /' },
  ]);
  t.same(
    read('echo cm0gLXJmIC8= | base64 -d | sh').map((f) => f.path),
    ['/arguments/x#base64-shell-0'],
  );
  t.same(
    read('echo cm0gLXJmIC8= | base64 -d').map((f) => f.path),
    [],
    'decoded but not run by a shell: no reading',
  );
  t.same(
    read("don't, it's").map((f) => f.path),
    ['/arguments/x#shell'],
    'prose apostrophes open no literal',
  );
  t.equal(read(`'${'a '.repeat(10)}' `.repeat(20)).length, 1 + 8, 'at most eight literals');
  t.same(
    read('echo \\"rm -rf /\\" "ok go"').map((f) => f.value),
    ['echo "rm -rf /" ok go', 'ok go'],
    'an escaped quote opens no literal',
  );
  // one quote after another, each escaped: read in one pass (a search from each read 4 KiB windows again)
  const hostile = `find / ${'"$IFS\\'.repeat(8000)}`;
  t.equal(read(hostile).filter((f) => f.path.includes('#literal')).length, 0);
});
