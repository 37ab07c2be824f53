import { parseArgs } from 'node:util';
import { PentagateError, UsageError } from '../errors.js';
import type { CliIo, Command, ParsedCommandLine } from './command.js';
import { renderCommandHelp, renderGroupHelp, renderTopHelp } from './help.js';
import { closestName, unknownOptionMessage } from './unknown-option.js';
import { describeUserError, oneLine } from './user-error.js';

/** Exit codes shared by every subcommand: 0 ok/valid, 1 invalid/failed, 2 bad usage or unreadable input. */
export const ExitCode = { ok: 0, invalid: 1, usage: 2 } as const;

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

/**
 * " Did you mean 'cloud tenant create'?" when `words[at]` is a typo of a command word after the words before
 * it, with as many of the words after it as still name commands; "" when nothing is close.
 */
function didYouMean(words: readonly string[], at: number, commands: readonly Command[]): string {
  const word = words[at];
  const prefix = words.slice(0, at);
  const under = (path: readonly string[]) =>
    commands.filter((c) => c.path.length >= path.length && path.every((w, i) => c.path[i] === w));
  if (word === undefined) return '';
  const meant = closestName(word, [...new Set(under(prefix).map((c) => c.path[at] ?? ''))]);
  if (!meant) return '';
  const fixed = [...prefix, meant];
  for (const next of words.slice(at + 1)) {
    if (under([...fixed, next]).length === 0) break;
    fixed.push(next);
  }
  return ` Did you mean '${fixed.join(' ')}'?`;
}

function findCommand(argv: readonly string[], commands: readonly Command[]): Command | undefined {
  let best: Command | undefined;
  for (const c of commands) {
    if (c.path.length <= argv.length && c.path.every((w, i) => argv[i] === w)) {
      if (!best || c.path.length > best.path.length) best = c;
    }
  }
  return best;
}

function parseCommandLine(command: Command, rest: string[]): ParsedCommandLine {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, spec] of Object.entries(command.options)) {
    options[name] = { type: spec.type, ...(spec.short ? { short: spec.short } : {}) };
    if (spec.type === 'string' && spec.multiple) options[name].multiple = true;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  } catch (err) {
    const unknown = /^Unknown option '([^']+)'/.exec((err as Error).message);
    if ((err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown?.[1]) {
      throw new UsageError(
        unknownOptionMessage(unknown[1], Object.keys(command.options), command.path.join(' ')),
        { showUsage: true },
      );
    }
    throw new UsageError((err as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''), { showUsage: true });
  }
  const values = parsed.values as ParsedCommandLine['options'];
  for (const [name, spec] of Object.entries(command.options)) {
    if (spec.type === 'string' && spec.default !== undefined && values[name] === undefined) {
      values[name] = spec.default;
    }
  }
  return { options: values, positionals: parsed.positionals };
}

/** What the program running the commands says of itself. */
export interface CliProgram {
  /** Printed by `--version` (and `-V`); without it those are unknown commands. */
  version?: string;
}

/**
 * Runs `pentagate <words…> [options]`. User mistakes print one clear line and exit 2 without a stack
 * trace: any PentagateError, and the raw errors a user's paths, ports and documents cause (missing or
 * unreadable files, a taken port, malformed JSON/YAML; see user-error.ts). A UsageError about the
 * command line itself adds the usage line. Only a fault in Pentagate itself prints a stack (exit 1).
 */
export async function runCli(
  argv: string[],
  commands: readonly Command[],
  io: CliIo = processIo,
  program: CliProgram = {},
): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.out(renderTopHelp(commands, program.version !== undefined));
    return argv.length === 0 ? ExitCode.usage : ExitCode.ok;
  }
  if (program.version !== undefined && (argv[0] === '--version' || argv[0] === '-V')) {
    if (argv.length > 1) {
      io.err(`pentagate: ${argv[0]} takes no arguments, got '${argv.slice(1).join(' ')}'`);
      return ExitCode.usage;
    }
    io.out(`pentagate ${program.version}`);
    return ExitCode.ok;
  }
  const command = findCommand(argv, commands);
  if (!command) {
    const words = argv.filter((a) => !a.startsWith('-'));
    for (let n = words.length; n > 0; n--) {
      const prefix = words.slice(0, n);
      if (commands.some((c) => prefix.every((w, i) => c.path[i] === w))) {
        const wantsHelp = argv.includes('--help') || argv.includes('-h');
        // `pentagate verify` alone is a group waiting for its subcommand, not a wrong command
        const complaint =
          n === words.length && words.length === argv.length
            ? `'${argv.join(' ')}' needs a subcommand; pick one of these:`
            : `'${argv.join(' ')}' is not a command.${didYouMean(words, n, commands)}`;
        if (!wantsHelp) io.err(`pentagate: ${complaint}`);
        io[wantsHelp ? 'out' : 'err'](renderGroupHelp(prefix, commands));
        return wantsHelp ? ExitCode.ok : ExitCode.usage;
      }
    }
    io.err(
      `pentagate: unknown command '${argv[0]}'.${argv[0]?.startsWith('-') ? '' : didYouMean(argv, 0, commands)} Run \`pentagate --help\` for the list.`,
    );
    return ExitCode.usage;
  }
  const rest = argv.slice(command.path.length);
  const usageLine = `Usage: pentagate ${command.path.join(' ')} ${command.usage}`.trimEnd();
  try {
    const parsed = parseCommandLine(command, rest);
    if (parsed.options.help) {
      io.out(renderCommandHelp(command));
      return ExitCode.ok;
    }
    const [min, max] = command.positionals ?? [0, 0];
    if (parsed.positionals.length < min || parsed.positionals.length > max) {
      const want =
        min === max ? `${min}` : max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} to ${max}`;
      // naming the extra words shows which one was meant as an option's value (`edge check FILE` for --profile)
      const extra = parsed.positionals.slice(max).map((p) => `'${p}'`);
      const unexpected = extra.length > 0 ? `; unexpected: ${extra.join(' ')}` : '';
      throw new UsageError(`expected ${want} argument(s), got ${parsed.positionals.length}${unexpected}`, {
        showUsage: true,
      });
    }
    return await command.run(parsed, io);
  } catch (err) {
    const who = `pentagate ${command.path.join(' ')}`;
    if (err instanceof UsageError) {
      io.err(`${who}: ${oneLine(err.message)}${err.showUsage ? `\n${usageLine}` : ''}`);
      return ExitCode.usage;
    }
    if (err instanceof PentagateError) {
      io.err(`${who}: ${oneLine(err.message)}`);
      return ExitCode.usage;
    }
    const userError = describeUserError(
      err,
      Object.keys(command.options).filter((o) => /port$/.test(o)),
    );
    if (userError !== undefined) {
      io.err(`${who}: ${userError}`);
      return ExitCode.usage;
    }
    io.err(`${who}: internal error: ${(err as Error)?.stack ?? String(err)}`);
    return ExitCode.invalid;
  }
}

/**
 * Resolves a command line to its command and parsed options without running it, for tools that check
 * command lines written elsewhere (deployment files, scripts). Throws UsageError when it does not fit.
 */
export function resolveCommandLine(
  argv: string[],
  commands: readonly Command[],
): { command: Command; parsed: ParsedCommandLine } {
  const command = findCommand(argv, commands);
  if (!command) throw new UsageError(`'${argv.join(' ')}' is not a pentagate command`);
  const parsed = parseCommandLine(command, argv.slice(command.path.length));
  const [min, max] = command.positionals ?? [0, 0];
  if (parsed.positionals.length < min || parsed.positionals.length > max) {
    throw new UsageError(
      `${command.path.join(' ')}: expected ${min}..${max} argument(s), got ${parsed.positionals.length}`,
    );
  }
  return { command, parsed };
}

/** Reads a required string option or throws a UsageError naming it. */
export function requireOption(args: ParsedCommandLine, name: string): string {
  const v = args.options[name];
  if (typeof v !== 'string' || v.length === 0)
    throw new UsageError(`--${name} is required`, { showUsage: true });
  return v;
}
