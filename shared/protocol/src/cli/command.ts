/**
 * The contract between the root `pentagate` bin and the packages that contribute subcommands.
 * Each package exports `commands: Command[]` from its `./commands` entry point.
 */
export type OptionSpec =
  | { type: 'boolean'; short?: string; description: string }
  | {
      type: 'string';
      short?: string;
      description: string;
      valueName?: string;
      default?: string;
      multiple?: boolean;
    };

export interface CliIo {
  /** Human or JSON output. */
  out(text: string): void;
  /** Diagnostics and progress; never mixed into stdout so `--json` stays parseable. */
  err(text: string): void;
}

export interface ParsedCommandLine {
  options: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

export interface Command {
  /** The words after `pentagate`, e.g. `['verify', 'proof']`. */
  path: string[];
  /** One line for `pentagate --help`. */
  summary: string;
  /** The argument synopsis after the command words, e.g. `FILE --trust TRUST [--json]`. */
  usage: string;
  /** Longer text for `pentagate <command> --help`: what it does, exit codes, examples. */
  description?: string;
  options: Record<string, OptionSpec>;
  /** Positional arguments allowed: [min, max]; max may be Infinity. */
  positionals?: [number, number];
  /** Returns the process exit code. */
  run(args: ParsedCommandLine, io: CliIo): Promise<number>;
}
