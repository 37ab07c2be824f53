/**
 * The commands a string argument runs once a shell or an interpreter has read it. The screens match words
 * (`rm -rf /`), but a shell removes quotes and backslashes and expands parameters before it runs anything, so
 * `r""m -r""f /`, `r'm' -rf /`, `r\m -rf /` and `rm${IFS}-rf${IFS}/` all run `rm -rf /` (outside attack review:
 * each was approved). Each argument is therefore also screened in the forms derived here, once, and every rule
 * reads them as it reads the argument itself. The readings are only for matching: nothing here changes what a
 * tool runs.
 */
import type { StringField } from './string-fields.js';

/** Longest argument read as a command: the injection screen refuses longer fields as unscannable. */
const MAX_COMMAND_CHARS = 65_536;
/** Quoted literals read per argument at most (each is screened as a field of its own). */
const MAX_LITERALS = 8;

/**
 * Characters that a shell reads differently from the text as written, and the decoder a payload is piped
 * through: a string without any has no reading beyond itself, and most arguments (prose, identifiers,
 * numbers) are such strings.
 */
const SHELL_SYNTAX = /["'\\${]|base64/;

/**
 * `$IFS` in any spelling: unquoted, its expansion is split into fields (POSIX.1-2017 XCU §2.6.5), so it
 * separates words as a blank does.
 */
const IFS = /^\$(?:IFS|\{IFS(?:[:#%][^}]*)?\})/;
/**
 * Parameters that expand to nothing in a command run with no arguments (`sh -c`, `system(3)`): the
 * positional parameters `$1`…`$9`, `$@` and `$*` (XCU §2.5.1, §2.5.2), so `r$@m` runs `rm`.
 */
const EMPTY_PARAMETER = /^\$(?:[1-9@*]|\{[1-9@*]\})/;
/** Bash brace expansion (Bash Reference Manual §3.5.1): `{rm,-rf,/}` is the words `rm -rf /`. */
const BRACE_LIST = /\{([^{}\s,]*(?:,[^{}\s,]*)+)\}/g;

/**
 * The text a POSIX shell runs for `text`: quote removal (XCU §2.2.1 backslash, §2.2.2 single quotes,
 * §2.2.3 double quotes, §2.6.7), bash's `$'…'` read as single quotes, `$IFS` as a blank, empty parameters
 * dropped and brace lists spread into words. An unclosed quote runs to the end (a shell would wait for more).
 */
export function shellReading(text: string): string {
  let out = '';
  let quote: '"' | '' = '';
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === '\\') {
      // a backslash-newline is a line continuation (§2.2.1); any other escaped character stands for itself
      if (text[i + 1] !== '\n') out += text[i + 1] ?? '';
      i += 2;
    } else if (c === '"') {
      quote = quote ? '' : '"';
      i++;
    } else if (!quote && (c === "'" || (c === '$' && text[i + 1] === "'"))) {
      const start = c === '$' ? i + 2 : i + 1;
      const end = text.indexOf("'", start);
      out += text.slice(start, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '$') {
      const rest = text.slice(i, i + 64);
      const ifs = IFS.exec(rest) ?? EMPTY_PARAMETER.exec(rest);
      if (ifs) {
        out += ifs[0].includes('IFS') ? ' ' : '';
        i += ifs[0].length;
      } else {
        out += c;
        i++;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out.replace(BRACE_LIST, (_, words: string) => words.replace(/,/g, ' '));
}

/** Longest quoted literal read (a command, not a document). */
const MAX_LITERAL_CHARS = 4096;
const WORD_CHARACTER = /[\p{L}\p{N}_]/u;

const isWordAt = (text: string, i: number): boolean =>
  i >= 0 && i < text.length && WORD_CHARACTER.test(text[i]!);

/** Whether the character at `i` follows an odd run of backslashes (`\\"` is a character, not a quote). */
function isEscaped(text: string, i: number): boolean {
  let run = 0;
  while (i - run - 1 >= 0 && text[i - run - 1] === '\\') run++;
  return run % 2 === 1;
}

/**
 * Where the literal opened by the quote at `open` closes: the next same quote (in double quotes, one not
 * escaped by a backslash) on the same line and within MAX_LITERAL_CHARS, else −1.
 */
function closingQuote(text: string, open: number): number {
  const quote = text[open];
  const last = Math.min(text.length, open + 1 + MAX_LITERAL_CHARS + 1);
  for (let i = open + 1; i < last; i++) {
    const c = text[i];
    if (c === '\n') return -1;
    if (c === '\\' && quote === '"') i++;
    else if (c === quote) return i;
  }
  return -1;
}

/**
 * Quoted literals that stand as a value of their own: opened after a non-word character and closed before
 * one, so `os.system('rm -rf /')`, `subprocess.run("…")` and `sh -c '…'` hand their literal to a shell,
 * while the apostrophes of prose (`don't`, `it's`) open none. At most MAX_LITERALS, found in one pass: a
 * search from a quote that closes no literal goes on from its closing quote, and a search that finds no
 * closing quote leaves no unescaped quote of its kind (no opener) before the line or window ends, so each
 * character is read a bounded number of times (a pattern tried from every quote of a hostile 48 KB argument
 * read each window again: 40 times slower).
 */
function quotedLiterals(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length && out.length < MAX_LITERALS; i++) {
    const c = text[i];
    if ((c !== '"' && c !== "'") || isWordAt(text, i - 1) || isEscaped(text, i)) continue;
    const close = closingQuote(text, i);
    if (close < 0) continue;
    if (close - i - 1 >= 2 && !isWordAt(text, close + 1)) out.push(text.slice(i + 1, close));
    else {
      i = close - 1; // the closing quote may open the next literal
      continue;
    }
    i = close;
  }
  return out;
}

/**
 * A base64 payload decoded and piped into a shell (`echo cm0gLXJmIC8= | base64 -d | sh`, `base64 --decode
 * <<< … | bash`): the shell runs the decoded text, which the screens cannot read as written. Matched on the
 * shell reading, where quotes are gone.
 */
const BASE64_TO_SHELL =
  /(?:\b(?:echo|printf)\s+(?:-[a-z]+\s+)*([A-Za-z0-9+/]{4,}={0,2})\s*\|\s*base64\s+(?:-d|-D|--decode)|\bbase64\s+(?:-d|-D|--decode)\s*<<<\s*([A-Za-z0-9+/]{4,}={0,2}))\s*\|\s*(?:sudo\s+)?(?:\/usr)?(?:\/bin\/)?(?:ba|z|da|k)?sh\b/g;

function decodedForShell(reading: string): string[] {
  const out: string[] = [];
  for (const m of reading.matchAll(BASE64_TO_SHELL)) {
    out.push(Buffer.from(m[1] ?? m[2]!, 'base64').toString('utf8'));
  }
  return out;
}

/**
 * The readings of each field that differ from it, as fields of their own (path `<field>#shell`,
 * `#literal-<n>`, `#base64-shell-<n>`) for the screens to read beside the fields themselves.
 */
export function commandReadings(fields: readonly StringField[]): StringField[] {
  const out: StringField[] = [];
  for (const field of fields) {
    const value = field.value;
    if (value.length > MAX_COMMAND_CHARS || !SHELL_SYNTAX.test(value)) continue;
    const shell = shellReading(value);
    if (shell !== value) out.push({ path: `${field.path}#shell`, value: shell });
    quotedLiterals(value).forEach((literal, i) => {
      out.push({ path: `${field.path}#literal-${i}`, value: literal });
    });
    decodedForShell(shell).forEach((decoded, i) => {
      out.push({ path: `${field.path}#base64-shell-${i}`, value: decoded });
    });
  }
  return out;
}
